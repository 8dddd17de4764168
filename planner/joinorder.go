package planner

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// Join order.
//
// The written FROM is a left-deep tree T0 op1 T1 op2 T2 … (RIGHT JOIN is
// rewritten as LEFT first). ddbsql runs it as a left-deep pipeline: one
// read (the driving table), then one join per remaining table, in any order
// that returns SQL's rows. After the outer-join simplification
// (simplifyOuter) these rules keep the meaning:
//
//  1. The optional side of a LEFT join never drives: the join must return
//     every row of the tables before it, matched or not, so it cannot start
//     from the rows of the optional side.
//  2. An optional side is joined only once every table its ON mentions is
//     joined, and its ON conditions are applied at that step, as the match
//     condition (rows without a match are kept, extended with NULLs).
//  3. WHERE conditions that mention an optional side are applied only after
//     it is joined, above the join (they must see its NULLs); a WHERE
//     condition on one table that is not an optional side goes into that
//     table's read.
//  4. WHERE conditions and INNER joins' ON conditions are alike: filters
//     over the joined rows, applied (as join keys, residual checks or
//     filters) at any step after all their tables are joined.
//
// Rules 2–4 rest on two identities of relational algebra, for an ON θ that
// does not mention C and an ON φ that does not mention B:
// (A ⟕θ B) ⋈φ C = (A ⋈φ C) ⟕θ B and (A ⟕θ B) ⟕φ C = (A ⟕φ C) ⟕θ B.
// So a table may move before or after an optional side it is not needed
// by, and every order that respects rules 1–2 is equivalent.
//
// Among the valid orders ddbsql picks, by key: the driving table is the
// first table in FROM order (rule 1 allowing) whose own conditions give a
// read without a Scan; then, step by step, the first table in FROM order
// that is linked to the joined ones by an equality and can be reached by
// key (its own key conditions, its table partition key, a GSI partition
// key, or its sort key with the partition key fixed). The search backtracks,
// so a choice that would leave a table without a key path gives way to one
// that does not. Only when no order works by key and --allow-scan is given
// does it accept Scans: of the driving table (the smallest) or of a joined
// table (hash join), taking steps by key first.

// chooseOrder returns the FROM items in execution order, the driving one
// first, or the error that explains why no order works.
func (jp *joinPlanner) chooseOrder() ([]int, error) {
	order, err := jp.searchOrder()
	if err != nil {
		if sparse := jp.sparseHint(); sparse != nil {
			return nil, sparse
		}
	}
	return order, err
}

func (jp *joinPlanner) searchOrder() ([]int, error) {
	var keyed, others []int
	for s := range jp.sp.froms {
		switch {
		case jp.kinds[s] == JoinLeft:
		case jp.keyed[s]:
			keyed = append(keyed, s)
		default:
			others = append(others, s)
		}
	}
	search := &orderSearch{jp: jp, dead: map[string]bool{}}
	for _, d := range keyed {
		if order := search.from(d); order != nil {
			return order, nil
		}
	}
	if !jp.sp.opts.AllowScan {
		if len(keyed) == 0 {
			return nil, jp.noDrivingError()
		}
		return nil, search.failure()
	}
	// --allow-scan: the same drivers first, then the smallest others.
	slices.SortStableFunc(others, func(a, b int) int {
		return cmp.Compare(jp.sp.froms[a].table.ItemCount, jp.sp.froms[b].table.ItemCount)
	})
	search = &orderSearch{jp: jp, dead: map[string]bool{}, scans: true}
	for _, d := range append(keyed, others...) {
		if !jp.keyed[d] {
			if err := jp.scanReadError(d); err != nil {
				search.note(err)
				continue
			}
		}
		if order := search.from(d); order != nil {
			return order, nil
		}
	}
	return nil, search.failure()
}

// maxOrderSteps bounds the sets of joined tables one search explores.
const maxOrderSteps = 4096

// orderSearch is a depth-first search over join orders from one driving
// table. The conditions a step can use depend only on the set of tables
// joined before it, so a set from which no order completes is remembered
// (dead) and never explored twice.
type orderSearch struct {
	jp    *joinPlanner
	scans bool // --allow-scan: a table without a key path is scanned and hash-joined
	dead  map[string]bool
	// steps bounds the search (each set of joined tables is explored at
	// most once, but a join of many tables has many sets): past it, the
	// search gives up with the first reason it met.
	steps int
	// err is the first reason met why a table could not be joined (noPath:
	// it has no key path); unlinked, the first table found linked to
	// nothing joined.
	err, unlinked error
	noPath        bool
}

func (s *orderSearch) note(err error) {
	if s.err == nil {
		s.err = err
	}
}

// noteNoPath records that a table cannot be reached by key from the
// tables joined before it.
func (s *orderSearch) noteNoPath(err error) {
	if s.err == nil {
		s.err, s.noPath = err, true
	}
}

func (s *orderSearch) failure() error {
	switch {
	case s.err != nil && s.noPath && s.jp.reorderable():
		// The user might expect another spelling of the FROM to help.
		var pe *diag.Error
		if asPlanError(s.err, &pe) {
			e := *pe
			e.Msg += ". Writing the tables in another order would not help: ddbsql already considers every join order with the same meaning"
			return &e
		}
		return s.err
	case s.err != nil:
		return s.err
	case s.unlinked != nil:
		return s.unlinked
	case s.steps >= maxOrderSteps:
		return errorf(diag.CodeJoin, "this join of %d tables has too many possible orders for ddbsql to search for one that reaches every table by key", len(s.jp.sp.froms)).
			Hintf("join fewer tables in one statement")
	}
	return errorf(diag.CodeJoin, "internal: no join order found")
}

func (s *orderSearch) from(driving int) []int {
	return s.extend([]int{driving}, map[int]bool{driving: true}, make([]bool, len(s.jp.pool)))
}

// extend completes order (the items joined so far) or returns nil.
func (s *orderSearch) extend(order []int, joined map[int]bool, used []bool) []int {
	jp := s.jp
	n := len(jp.sp.froms)
	if len(order) == n {
		return order
	}
	key := joinedKey(joined, n)
	if s.dead[key] || s.steps >= maxOrderSteps {
		return nil
	}
	s.steps++
	linked := false
	// First the tables reachable by key; with --allow-scan, then the rest.
	for pass := 0; pass < 2 && (pass == 0 || s.scans); pass++ {
		for item := range jp.sp.froms {
			if joined[item] || !jp.ready(item, joined) {
				continue
			}
			st := jp.stepFor(item, joined, used)
			if len(st.keys) == 0 {
				continue
			}
			linked = true
			byKey, err := jp.byKey(st)
			switch {
			case err != nil:
				s.note(err)
				continue
			case byKey && pass == 1, !byKey && pass == 0:
				if !byKey && !s.scans {
					s.noteNoPath(jp.noKeyPath(st))
				}
				continue
			case !byKey:
				if err := jp.scanReadError(item); err != nil {
					s.note(err)
					continue
				}
			}
			next := map[int]bool{item: true}
			for j := range joined {
				next[j] = true
			}
			nextUsed := slices.Clone(used)
			markUsed(nextUsed, st.conds)
			if st.kind == JoinLeft {
				markUsed(nextUsed, jp.available(next, nextUsed))
			}
			if done := s.extend(append(slices.Clone(order), item), next, nextUsed); done != nil {
				return done
			}
		}
	}
	if !linked && s.unlinked == nil {
		for item := range jp.sp.froms {
			if !joined[item] {
				s.unlinked = jp.notLinked(item)
				break
			}
		}
	}
	s.dead[key] = true
	return nil
}

// ready reports whether item may be joined next: an optional side only
// once every table its ON mentions is joined (rule 2).
func (jp *joinPlanner) ready(item int, joined map[int]bool) bool {
	if jp.kinds[item] != JoinLeft {
		return true
	}
	for _, c := range jp.sp.ons[jp.onStep[item]] {
		for _, src := range sourcesOf(c) {
			if src != item && !joined[src] {
				return false
			}
		}
	}
	return true
}

// byKey reports whether the step can be done without a Scan: the item has
// key conditions of its own, or a key can find it from the joined rows.
func (jp *joinPlanner) byKey(st plannedStep) (bool, error) {
	if err := jp.checkKeyTypes(st); err != nil {
		return false, err
	}
	if jp.keyed[st.item] {
		return true, nil
	}
	_, ok := jp.target(st)
	return ok, nil
}

func joinedKey(joined map[int]bool, n int) string {
	b := make([]byte, n)
	for i := range b {
		b[i] = '0'
		if joined[i] {
			b[i] = '1'
		}
	}
	return string(b)
}

func (jp *joinPlanner) notLinked(item int) error {
	alias := jp.sp.froms[item].alias
	return errorf(diag.CodeJoin, "%s is not linked to the other tables by an equality; ddbsql joins by key, so add ON %s.<key> = <other table>.<attribute>",
		alias, alias)
}

// noDrivingError explains a join that would have to start with a Scan
// because no table that may drive has a key condition.
func (jp *joinPlanner) noDrivingError() error {
	sp := jp.sp
	var drivers, optional []string
	for s, f := range sp.froms {
		switch {
		case jp.kinds[s] != JoinLeft:
			drivers = append(drivers, f.alias)
		case jp.keyed[s]:
			optional = append(optional, f.alias)
		}
	}
	t := sp.froms[0].table
	p := path{pk: t.PK, sk: t.SK}
	e := scanError(t, p)
	if len(optional) == 0 {
		e.Msg = "no table in this join has a key condition (= or IN on a partition key) in WHERE, so the join would start with a Scan: " + e.Msg
		return e
	}
	who := drivers[0] + " has no key condition"
	if len(drivers) > 1 {
		who = "none of " + strings.Join(drivers, ", ") + " has a key condition"
	}
	sides := "the optional side of a LEFT JOIN"
	if len(optional) > 1 {
		sides = "optional sides of LEFT JOINs"
	}
	e.Msg = fmt.Sprintf("this join needs a Scan of table %s: %s (= or IN on a partition key), and the only key conditions are on %s, %s, which never drives — a LEFT JOIN returns every row of the tables before it (%s), matched or not, so ddbsql must read all of them first. Writing the tables in another order would not help: ddbsql already considers every order with the same meaning. A Scan reads, and bills, the whole table%s.\n%s: %s",
		t.Name, who, strings.Join(optional, ", "), sides, strings.Join(drivers, ", "), sizeNote(t, p), t.Name, t.KeySummary())
	return e.Hintf("add = or IN on a partition key of %s (%s); to keep only rows that have a match in %s, write JOIN instead of LEFT JOIN; or rerun with --allow-scan to read all of %s",
		drivers[0], strings.Join(partitionKeys(t), ", "), optional[0], t.Name)
}

// drivesNote says, for EXPLAIN, why the join starts from item d (keyed:
// how it is read by key) and not from a table written before it.
func (jp *joinPlanner) drivesNote(d int, keyed string) string {
	why := "Scan (--allow-scan) of the smallest table that can drive: "
	switch {
	case jp.keyed[d]:
		why = keyed
	case jp.anyKeyedDriver():
		why += "no order that starts from a key condition reaches every table by key"
	default:
		why += "no table that can drive has a key condition"
	}
	var skipped []string
	for s := 0; s < d; s++ {
		alias := jp.sp.froms[s].alias
		switch {
		case jp.kinds[s] == JoinLeft:
			skipped = append(skipped, alias+" is the optional side of a LEFT JOIN, which never drives")
		case !jp.keyed[s]:
			skipped = append(skipped, alias+" has no key condition")
		default:
			skipped = append(skipped, "starting from "+alias+" leaves a table without a key path")
		}
	}
	if len(skipped) > 0 {
		why += " (" + strings.Join(skipped, "; ") + ")"
	}
	if c := jp.asInner[d]; c != nil {
		why += "; written as the optional side of an outer join, which runs as INNER: " + c.String() + " is never true on a row without a match"
	}
	return why
}

// reorderable reports whether the statement could plausibly be written in
// another order: more than two tables, or a LEFT join.
func (jp *joinPlanner) reorderable() bool {
	if len(jp.sp.froms) > 2 {
		return true
	}
	for _, st := range jp.sp.steps {
		if st.kind == JoinLeft {
			return true
		}
	}
	return false
}

// anyKeyedDriver reports whether a table that may drive has key conditions.
func (jp *joinPlanner) anyKeyedDriver() bool {
	for s, k := range jp.keyed {
		if k && jp.kinds[s] != JoinLeft {
			return true
		}
	}
	return false
}

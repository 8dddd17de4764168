package parser

import (
	"fmt"
	"sort"
	"strconv"
	"strings"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// Statements of several SELECTs are cut apart here, at the top level of
// the token stream, before sqlparser sees anything: a WITH list (with.go),
// set operators between members, and the ORDER BY / LIMIT of the whole
// compound. Each member is then parsed by the one SELECT path
// (parseMember), so quoting, document paths and positions work in every
// member as they do in a lone SELECT.

// tokSeq is a run of tokens (comments included) and its significant ones.
type tokSeq struct {
	src   string
	toks  []token
	sig   []token
	match []int // matchParens over sig
	depth int   // queries this one is nested in
}

func newSeq(src string, toks []token, depth int) *tokSeq {
	sig := significant(toks)
	return &tokSeq{src: src, toks: toks, sig: sig, match: matchParens(src, sig), depth: depth}
}

// MaxQueryNesting bounds how deeply queries nest in one another (a derived
// table in a derived table, a WITH query's body, a parenthesized member):
// each level is parsed on its own, so the bound keeps the work linear.
const MaxQueryNesting = 64

func (q *tokSeq) word(i int) string {
	if i < 0 || i >= len(q.sig) || q.sig[i].kind != tkIdent {
		return ""
	}
	return lower(q.src[q.sig[i].start:q.sig[i].end])
}

func (q *tokSeq) punct(i int, p string) bool {
	return i >= 0 && i < len(q.sig) && isPunctTok(q.src, q.sig[i], p)
}

func (q *tokSeq) text(i int) string { return q.src[q.sig[i].start:q.sig[i].end] }

// sub is the tokens (comments included) of significant tokens i..j.
func (q *tokSeq) sub(i, j int) []token {
	a, b := q.sig[i].start, q.sig[j].end
	// Tokens are in source order: the range is found by search, so
	// cutting a long compound into members stays linear.
	lo := sort.Search(len(q.toks), func(k int) bool { return q.toks[k].start >= a })
	hi := sort.Search(len(q.toks), func(k int) bool { return q.toks[k].start >= b })
	return q.toks[lo:hi]
}

func (q *tokSeq) span(i, j int) Span { return Span{q.sig[i].start, q.sig[j].end} }

// wraps reports whether sig[0] and the last token are matching parentheses
// around a query (one starting with SELECT, WITH or another parenthesis).
func (q *tokSeq) wraps() bool {
	n := len(q.sig)
	return n >= 3 && q.match[0] == n-1 && (q.word(1) == "select" || q.word(1) == "with" || q.punct(1, "("))
}

// parseQuery parses a SELECT, a compound of SELECTs, or a WITH statement.
func parseQuery(src string, toks []token) (*Select, *diag.Error) {
	return parseQueryAt(src, toks, 0)
}

func parseQueryAt(src string, toks []token, depth int) (*Select, *diag.Error) {
	q := newSeq(src, toks, depth)
	if len(q.sig) == 0 {
		return nil, errAt(diag.CodeSyntax, 0, "empty query", "")
	}
	if depth > MaxQueryNesting {
		return nil, errAt(diag.CodeSyntax, q.sig[0].start, fmt.Sprintf("queries nested too deeply (more than %d levels)", MaxQueryNesting),
			"name the inner queries in a WITH clause")
	}
	if q.word(0) == "with" {
		return q.withQuery()
	}
	return q.compound()
}

// compound parses members joined by set operators; one member alone is
// that member.
func (q *tokSeq) compound() (*Select, *diag.Error) {
	if q.wraps() {
		// (SELECT …) or ((… UNION …)): the parentheses change nothing
		// but the statement's text.
		sel, err := parseQueryAt(q.src, q.sub(1, len(q.sig)-2), q.depth+1)
		if err != nil {
			return nil, err
		}
		sel.Loc = q.span(0, len(q.sig)-1)
		sel.Text = q.src[sel.Loc.Start:sel.Loc.End]
		return sel, nil
	}
	bounds, ops := q.splitOps(0, len(q.sig)-1)
	if len(ops) == 0 {
		return q.member(0, len(q.sig)-1)
	}
	last := bounds[len(bounds)-1]
	tailAt := q.tailStart(last[0], last[1])
	query := &Query{Count: -1, Loc: q.span(0, len(q.sig)-1)}
	if tailAt >= 0 {
		if err := q.tail(tailAt, query); err != nil {
			return nil, err
		}
		bounds[len(bounds)-1][1] = tailAt - 1
		if tailAt-1 < last[0] {
			return nil, errAt(diag.CodeSyntax, q.sig[tailAt].start, "a SELECT is missing before "+quoteSnippet(q.text(tailAt)), "")
		}
	}
	members := make([]QueryExpr, len(bounds))
	for k, b := range bounds {
		if b[1] < b[0] {
			at := q.sig[min(b[0], len(q.sig)-1)].start
			if k < len(ops) {
				at = q.sig[ops[k].at].start
			}
			return nil, errAt(diag.CodeSyntax, at, "a SELECT is missing next to "+ops[min(k, len(ops)-1)].kind.String(), "")
		}
		if k < len(bounds)-1 {
			if at := q.tailStart(b[0], b[1]); at >= 0 {
				return nil, errAt(diag.CodeSyntax, q.sig[at].start,
					strings.ToUpper(q.word(at))+" inside a member of "+ops[k].kind.String()+" must be in parentheses",
					"write (SELECT … "+strings.ToUpper(q.word(at))+" …) "+ops[k].kind.String()+" …, or put it at the end to apply to the whole result")
			}
		}
		m, err := q.member(b[0], b[1])
		if err != nil {
			return nil, err
		}
		members[k] = m
	}
	query.Body = combine(members, ops)
	return &Select{Query: query, Text: q.src[query.Loc.Start:query.Loc.End], Loc: query.Loc}, nil
}

// setOpAt is a set operator between members: its kind, ALL, and where it is.
type setOpAt struct {
	kind   SetOpKind
	all    bool
	at, to int // significant tokens of the operator (UNION [ALL|DISTINCT])
}

// splitOps cuts sig[i..j] at its top-level set operators.
func (q *tokSeq) splitOps(i, j int) (bounds [][2]int, ops []setOpAt) {
	depth, start := 0, i
	for k := i; k <= j; k++ {
		switch {
		case q.punct(k, "("):
			depth++
		case q.punct(k, ")"):
			depth--
		case depth == 0 && !q.punct(k-1, ".") && q.isSetOp(k):
			op := setOpAt{kind: setOpKinds[q.word(k)], at: k, to: k}
			if w := q.word(k + 1); w == "all" || w == "distinct" {
				op.all, op.to = w == "all", k+1
			}
			bounds = append(bounds, [2]int{start, k - 1})
			ops = append(ops, op)
			start = op.to + 1
			k = op.to
		}
	}
	return append(bounds, [2]int{start, j}), ops
}

var setOpKinds = map[string]SetOpKind{"union": Union, "intersect": Intersect, "except": Except}

// isSetOp reports whether sig[k] is a set operator: UNION always (it is
// reserved), INTERSECT and EXCEPT when a query follows (they may be names).
func (q *tokSeq) isSetOp(k int) bool {
	switch q.word(k) {
	case "union":
		return true
	case "intersect", "except":
		n := k + 1
		if w := q.word(n); w == "all" || w == "distinct" {
			n++
		}
		return q.word(n) == "select" || q.punct(n, "(") || q.word(n) == "with"
	}
	return false
}

// tailStart finds the ORDER BY or LIMIT that ends a compound: at the top
// level of its last member (which, in parentheses, has none), or -1.
func (q *tokSeq) tailStart(i, j int) int {
	if i <= j && q.punct(i, "(") && q.match[i] == j {
		return -1
	}
	depth := 0
	for k := i; k <= j; k++ {
		switch {
		case q.punct(k, "("):
			depth++
		case q.punct(k, ")"):
			depth--
		case depth == 0 && !q.punct(k-1, ".") && (q.word(k) == "order" && q.word(k+1) == "by" || q.word(k) == "limit"):
			return k
		}
	}
	return -1
}

// combine builds the tree: INTERSECT first, then UNION and EXCEPT from the left.
func combine(members []QueryExpr, ops []setOpAt) QueryExpr {
	type pending struct {
		e  QueryExpr
		op setOpAt // the operator before e (unset for the first)
	}
	var level []pending
	level = append(level, pending{e: members[0]})
	for k, op := range ops {
		right := members[k+1]
		if op.kind == Intersect {
			top := &level[len(level)-1]
			top.e = join(top.e, right, op)
			continue
		}
		level = append(level, pending{e: right, op: op})
	}
	out := level[0].e
	for _, p := range level[1:] {
		out = join(out, p.e, p.op)
	}
	return out
}

func join(l, r QueryExpr, op setOpAt) *SetOp {
	return &SetOp{Op: op.kind, All: op.all, Left: l, Right: r, Loc: Span{l.Span().Start, r.Span().End}}
}

// member parses one member: a SELECT, or a parenthesized query.
func (q *tokSeq) member(i, j int) (*Select, *diag.Error) {
	if q.punct(i, "(") && q.match[i] == j && j-i >= 2 {
		inner, err := parseQueryAt(q.src, q.sub(i+1, j-1), q.depth+1)
		if err != nil {
			return nil, err
		}
		return inner, nil
	}
	if w := q.word(i); w != "select" {
		return nil, errAt(diag.CodeSyntax, q.sig[i].start, "unexpected "+quoteSnippet(q.text(i)),
			"each member of UNION, INTERSECT or EXCEPT is a SELECT, or a query in parentheses")
	}
	return parseMember(q.src, q.sub(i, j), q.depth)
}

// tail parses ORDER BY … LIMIT … OFFSET … of a compound, from sig[i] on.
func (q *tokSeq) tail(i int, query *Query) *diag.Error {
	n := len(q.sig)
	k := i
	if q.word(k) == "order" {
		k += 2
		for {
			if k >= n {
				return errAt(diag.CodeSyntax, q.sig[n-1].end, "unexpected end of statement: ORDER BY needs an output column", "")
			}
			it, next, err := q.orderItem(k)
			if err != nil {
				return err
			}
			query.OrderBy = append(query.OrderBy, it)
			k = next
			if !q.punct(k, ",") {
				break
			}
			k++
		}
	}
	if q.word(k) == "limit" {
		a, err := q.count(k + 1)
		if err != nil {
			return err
		}
		k += 2
		switch {
		case q.punct(k, ","):
			b, err := q.count(k + 1)
			if err != nil {
				return err
			}
			query.Offset, query.Count = a, b
			k += 2
		case q.word(k) == "offset":
			b, err := q.count(k + 1)
			if err != nil {
				return err
			}
			query.Count, query.Offset = a, b
			k += 2
		default:
			query.Count = a
		}
	}
	if k < n {
		return errAt(diag.CodeSyntax, q.sig[k].start, "unexpected "+quoteSnippet(q.text(k)),
			"a compound ends with ORDER BY output columns, then LIMIT n [OFFSET m]")
	}
	return nil
}

// orderItem reads an output column (position or name) and ASC/DESC.
func (q *tokSeq) orderItem(k int) (OrderItem, int, *diag.Error) {
	t := q.sig[k]
	it := OrderItem{Loc: Span{t.start, t.end}}
	const hint = "the ORDER BY of UNION, INTERSECT or EXCEPT names output columns, by name or by position (ORDER BY 1)"
	switch {
	case t.kind == tkNumber && allDigits(q.text(k)):
		p, err := strconv.Atoi(q.text(k))
		if err != nil || p < 1 {
			return it, k, errAt(diag.CodeSyntax, t.start, "ORDER BY position "+quoteSnippet(q.text(k))+" is not a column number", hint)
		}
		it.Position = p
	case t.kind == tkQuoted:
		it.Name = unquoteName(q.text(k))
	case t.kind == tkIdent && !hardKeywords[q.word(k)]:
		it.Name = q.text(k)
	default:
		return it, k, errAt(diag.CodeSyntax, t.start, "unexpected "+quoteSnippet(q.text(k)), hint)
	}
	k++
	if q.punct(k, ".") || q.punct(k, "(") || k < len(q.sig) && q.sig[k].kind == tkPunct && !q.punct(k, ",") {
		return it, k, errAt(diag.CodeUnsupported, t.start, "ORDER BY of a compound takes output columns only, not expressions", hint)
	}
	switch q.word(k) {
	case "desc":
		it.Desc = true
		k++
	case "asc":
		k++
	}
	return it, k, nil
}

// count reads a LIMIT or OFFSET number at sig[k].
func (q *tokSeq) count(k int) (int64, *diag.Error) {
	if k >= len(q.sig) {
		return 0, errAt(diag.CodeSyntax, q.sig[len(q.sig)-1].end, "unexpected end of statement: LIMIT and OFFSET take a whole number", "")
	}
	t := q.sig[k]
	n, err := strconv.ParseInt(q.text(k), 10, 64)
	if t.kind != tkNumber || err != nil || n < 0 {
		return 0, errAt(diag.CodeSyntax, t.start, "LIMIT and OFFSET take a non-negative whole number, not "+quoteSnippet(q.text(k)), "")
	}
	return n, nil
}

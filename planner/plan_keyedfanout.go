package planner

import (
	"fmt"
	"strings"
)

// KeyedFanout reads the items of FROM item Lookup.Source by key, for each
// distinct value of the first column of its subquery's rows (Sub): the
// reads of a literal IN list on that key, fed by the subquery batch by
// batch. It stands for the conjunct key IN (SELECT …), which it satisfies
// exactly: an item is read once however often its value repeats (a
// semi-join), and NULLs and values of another type match nothing. Its rows
// are the items, as an Access's.
type KeyedFanout struct {
	Sub Node
	// Lookup holds the reads' templates (Op, Batch or Query, Fetch) and
	// estimates; its Input is unused.
	Lookup *LookupJoin
	Number int    // the subquery's number in the statement
	SQL    string // the subquery as written
	// Scalar is key = (SELECT …): more than one subquery row is an error.
	Scalar bool
}

// Inputs implements Node.
func (n *KeyedFanout) Inputs() []Node { return []Node{n.Sub} }

func (n *KeyedFanout) describe() explainLine {
	lj := n.Lookup
	title := fmt.Sprintf("Keyed fan-out fed by subquery %d: %s %s by %s", n.Number, lj.Op, lj.Table, lj.Via)
	d := []string{"subquery " + fmt.Sprint(n.Number) + ": " + n.SQL + " (its plan is below; its rows are read batch by batch)",
		"estimate: " + lj.Estimate.String(),
		"lookup value: the first column of each subquery row, each distinct value once; NULLs and values that are not " + typeWord(lj.KeyType) + "s never match"}
	if n.Scalar {
		d = append(d, "key = (SELECT …): more than one subquery row is an error")
	}
	for _, line := range lj.describe().details {
		if strings.HasPrefix(line, "estimate: ") || strings.HasPrefix(line, "on: ") || strings.HasPrefix(line, "lookup value: ") {
			continue
		}
		d = append(d, line)
	}
	return explainLine{kind: "KeyedFanout", title: title, details: d}
}

func (n *KeyedFanout) jsonFields(w *jsonWriter, o *object) error {
	o.add("fed_by_subquery", object{{"number", n.Number}, {"sql", n.SQL}, {"scalar", n.Scalar}})
	return lookupFieldsNoJoin(w, o, n.Lookup)
}

// lookupFieldsNoJoin adds a lookup template's fields but its join kind:
// a fan-out or a semi-join joins nothing to the rows it passes.
func lookupFieldsNoJoin(w *jsonWriter, o *object, lj *LookupJoin) error {
	var fields object
	if err := lj.jsonFields(w, &fields); err != nil {
		return err
	}
	for _, f := range fields {
		if f.k != "join" {
			*o = append(*o, f)
		}
	}
	return nil
}

package planner

import (
	"fmt"
	"strings"
)

// Derived is a query read as a FROM item: a derived table, FROM (SELECT …)
// AS d, or a CTE the statement references once, planned in place. Its rows
// are Input's, with Columns as their attribute names (nil: the query is a
// SELECT *, whose items keep their own attributes).
type Derived struct {
	Input   Node
	Alias   string
	CTE     string // the CTE's name; "" for a derived table
	Columns []string
	Source  int // the FROM item it is
	// Drives, when the query starts a join, says why (for EXPLAIN).
	Drives string
}

// Inputs implements Node.
func (n *Derived) Inputs() []Node { return []Node{n.Input} }

func (n *Derived) describe() explainLine {
	title := "Derived table " + n.Alias + " (client)"
	if n.Alias == "" {
		title = "Derived table (client)"
	}
	why := "why: a query in FROM; its rows are computed by the plan below, never looked up by key"
	if n.CTE != "" {
		title = "CTE " + n.CTE + cteAlias(n.CTE, n.Alias) + " (client): planned in place, referenced once"
		why = "why: the WITH query is referenced once, so it runs where it is used"
	}
	d := []string{why, columnsLine(n.Columns)}
	if n.Drives != "" {
		d = append(d, "drives the join: "+n.Drives)
	}
	return explainLine{kind: "Derived", title: title, client: true, details: d}
}

func (n *Derived) jsonFields(_ *jsonWriter, o *object) error {
	o.add("alias", n.Alias)
	o.add("drives", n.Drives)
	o.add("cte", n.CTE)
	o.add("columns", n.Columns)
	return nil
}

// With runs a statement whose WITH queries are referenced several times:
// each of CTEs (a *Materialize) is read once, by its first reference, and
// replayed for the others. CTEs nobody references are not in the plan and
// send no request.
type With struct {
	CTEs  []Node
	Input Node
}

// Inputs implements Node.
func (n *With) Inputs() []Node { return append(append([]Node(nil), n.CTEs...), n.Input) }

func (n *With) describe() explainLine {
	names := make([]string, len(n.CTEs))
	for i, c := range n.CTEs {
		names[i] = c.(*Materialize).Name
	}
	return explainLine{kind: "With", title: "With (client): evaluated once: " + strings.Join(names, ", "),
		client: true, details: []string{"the last input is the statement; the others are its WITH queries, each read by its first reference"}}
}

func (n *With) jsonFields(_ *jsonWriter, o *object) error { return nil }

// Materialize holds the rows of a WITH query referenced Refs times: the
// first CTEScan that reads it runs Input to its end, keeping the batches
// (within the statement's memory limit, then in a spill run), and every
// reference replays them.
type Materialize struct {
	Input   Node
	Name    string
	Columns []string // nil: SELECT *
	Refs    int
}

// Inputs implements Node.
func (n *Materialize) Inputs() []Node { return []Node{n.Input} }

func (n *Materialize) describe() explainLine {
	return explainLine{kind: "Materialize", title: fmt.Sprintf("CTE %s (client): evaluated once, replayed for %d references", n.Name, n.Refs),
		client: true, details: []string{"rows are kept within --memory-limit, then spilled", columnsLine(n.Columns)}}
}

func (n *Materialize) jsonFields(_ *jsonWriter, o *object) error {
	o.add("cte", n.Name)
	o.add("references", n.Refs)
	o.add("columns", n.Columns)
	return nil
}

// CTEScan is one reference to a materialized WITH query: it replays the
// rows of CTE (an input of the With above it) as FROM item Alias.
type CTEScan struct {
	CTE    *Materialize
	Alias  string
	Source int // the FROM item it is
	// Drives, when the reference starts a join, says why (for EXPLAIN).
	Drives string
}

// Inputs implements Node.
func (n *CTEScan) Inputs() []Node { return nil }

func (n *CTEScan) describe() explainLine {
	var d []string
	if n.Drives != "" {
		d = append(d, "drives the join: "+n.Drives)
	}
	return explainLine{kind: "CTEScan", title: "CTE scan " + n.CTE.Name + cteAlias(n.CTE.Name, n.Alias) + " (client): replays the rows of " + n.CTE.Name,
		client: true, details: d}
}

func (n *CTEScan) jsonFields(_ *jsonWriter, o *object) error {
	o.add("cte", n.CTE.Name)
	o.add("alias", n.Alias)
	o.add("drives", n.Drives)
	return nil
}

func cteAlias(name, alias string) string {
	if alias == "" || alias == name {
		return ""
	}
	return " as " + alias
}

func columnsLine(cols []string) string {
	if cols == nil {
		return "columns: the attributes of each item (SELECT *)"
	}
	return "columns: " + strings.Join(cols, ", ")
}

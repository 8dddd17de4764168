package parser

// Query is a statement made of several SELECTs: a WITH list, set
// operations (UNION [ALL], INTERSECT [ALL], EXCEPT [ALL]) and the ORDER BY,
// LIMIT and OFFSET of the whole compound. A Select whose Query is set has
// no AST of its own.
type Query struct {
	With []CTE
	// Body is a *Select (one SELECT, maybe with a Query of its own when it
	// was written in parentheses) or a *SetOp.
	Body QueryExpr
	// OrderBy, Count and Offset apply to a compound Body; a single SELECT
	// keeps its own in its AST.
	OrderBy []OrderItem
	Count   int64 // -1: no LIMIT
	Offset  int64
	Loc     Span
}

// QueryExpr is a member of a compound: a *Select or a *SetOp.
type QueryExpr interface{ Span() Span }

// SetOpKind names a set operation.
type SetOpKind uint8

const (
	Union SetOpKind = iota
	Intersect
	Except
)

func (k SetOpKind) String() string {
	switch k {
	case Intersect:
		return "INTERSECT"
	case Except:
		return "EXCEPT"
	}
	return "UNION"
}

// SetOp is Left op Right. INTERSECT binds tighter than UNION and EXCEPT,
// which associate to the left.
type SetOp struct {
	Op          SetOpKind
	All         bool
	Left, Right QueryExpr
	OpLoc       Span // the operator keyword(s)
	Loc         Span
}

// Span implements QueryExpr.
func (s *SetOp) Span() Span { return s.Loc }

// CTE is one entry of a WITH list, or a derived table of a FROM (Derived),
// which the parser names with a synthetic name that cannot collide with a
// table's.
type CTE struct {
	Name    string
	Columns []string // the optional column list: WITH x(a, b) AS (…), or (SELECT …) AS d(a, b)
	Body    *Select
	Derived bool
	// Alias is a derived table's alias as written when it has a column
	// list (Name is synthetic), for messages about the list.
	Alias   string
	NameLoc Span
	Loc     Span
}

// OrderItem is a term of a compound's ORDER BY: an output column by
// position (1-based) or by name.
type OrderItem struct {
	Position int // 0 when Name is set
	Name     string
	Desc     bool
	Loc      Span
}

package parser

import "github.com/xwb1989/sqlparser"

// Span is a half-open byte range [Start, End) in the full input given to Parse.
type Span struct{ Start, End int }

// Statement is one parsed statement: *Select, *Explain, *ShowTables,
// *Describe, *ShowIndexes, or a write: *Insert, *Update, *Delete.
type Statement interface{ Span() Span }

// Select is any SELECT statement; the planner decides which parts it supports.
type Select struct {
	AST *sqlparser.Select
	// Paths maps each synthetic column name used in AST (as returned by
	// ColName.Name.String()) to the DynamoDB document path it stands for:
	// every reference with three or more components or a list index. Two-part
	// references (a.b) are left to sqlparser as qualifier.column, because only
	// the planner knows whether a is a table alias or a map attribute; for
	// the same reason the first element of a recorded path may be a table
	// name or alias (t.info.rating) for the planner to strip.
	Paths map[string]Path
	// QuotedValues are the double-quoted names written alone where SQL
	// usually has a value: status = "open", x LIKE "a%", x IN ("a"),
	// begins_with(SK, "DOC#"), and any in a SELECT without FROM. They are
	// names (PartiQL, standard SQL), but someone used to MySQL may have
	// meant strings; the planner says so when the statement fails, or when
	// it compares with an attribute that may not exist.
	QuotedValues []string
	// ItemTexts holds each select item as written, alias removed, in
	// AST.SelectExprs order: the name of an unaliased output column that
	// is not a plain column reference (SUM(x) + 1, COUNT(DISTINCT "a b")).
	// nil when the items could not be lined up with the AST.
	ItemTexts []string
	// Windows maps the synthetic function name of each window function
	// call in AST to its OVER clause (parser.Window says how the call's
	// arguments carry the function, PARTITION BY and ORDER BY).
	Windows map[string]*Window
	Text    string // the statement as written (original text, not the rewrite)
	Loc     Span
	// Query is set, and AST nil, for a statement of several SELECTs: WITH,
	// set operations, or a parenthesized member of those (query.go).
	Query *Query
	// Derived are the derived tables of this SELECT's FROM, each named in
	// AST by its CTE's synthetic name (derived.go).
	Derived []CTE
}

// Explain is EXPLAIN [ANALYZE] <select> (also DESCRIBE/DESC <select>),
// EXPLAIN ATHENA|DUCKDB <select>, which asks for the statement rewritten
// for that engine over the table's export (Dialect set, Analyze false),
// or EXPLAIN <write> (Write set, Stmt nil).
type Explain struct {
	Analyze bool
	// Dialect is "" for ddbsql's own plan, else DialectAthena or
	// DialectDuckDB.
	Dialect string
	Stmt    *Select
	// Write is the INSERT, REPLACE, UPDATE or DELETE explained.
	Write Statement
	Loc   Span
}

// The engines EXPLAIN can rewrite a SELECT for.
const (
	DialectAthena = "athena"
	DialectDuckDB = "duckdb"
)

// ShowTables is SHOW TABLES.
type ShowTables struct{ Loc Span }

// Describe is DESCRIBE t, DESC t or EXPLAIN t.
type Describe struct {
	Table string
	Loc   Span
}

// ShowIndexes is SHOW INDEXES|INDEX|KEYS FROM|IN t.
type ShowIndexes struct {
	Table string
	Loc   Span
}

// Span implements Statement.
func (s *Select) Span() Span { return s.Loc }

// Span implements Statement.
func (s *Explain) Span() Span { return s.Loc }

// Span implements Statement.
func (s *ShowTables) Span() Span { return s.Loc }

// Span implements Statement.
func (s *Describe) Span() Span { return s.Loc }

// Span implements Statement.
func (s *ShowIndexes) Span() Span { return s.Loc }

// Path returns the document path a synthetic column stands for. It reports
// false for any column the parser did not rewrite (a plain name, or a
// qualified a.b the planner must resolve itself).
func (s *Select) Path(col *sqlparser.ColName) (Path, bool) {
	if col == nil || !col.Qualifier.IsEmpty() {
		return nil, false
	}
	p, ok := s.Paths[col.Name.String()]
	return p, ok
}

// TableRef reads a FROM table name the ddbsql way: `t`.`i` means index i of
// table t (sqlparser calls t the qualifier); a bare name has no index.
func TableRef(tn sqlparser.TableName) (table, index string) {
	if tn.Qualifier.IsEmpty() {
		return tn.Name.String(), ""
	}
	return tn.Qualifier.String(), tn.Name.String()
}

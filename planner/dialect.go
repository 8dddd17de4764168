package planner

import (
	"context"
	"fmt"
	"strings"

	"github.com/ddbsql/ddbsql/parser"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/expr"
)

// Sources of an export that EXPLAIN ATHENA and EXPLAIN DUCKDB can read
// (DialectOptions.Source).
const (
	SourceJSON    = "json"    // DYNAMODB_JSON export: {"Item": {"a": {"S": …}}} lines, gzipped
	SourceIon     = "ion"     // ION export: $ion_1_0 {Item: {a: …}} with typed values
	SourceParquet = "parquet" // ddbsql --format parquet output: one column per attribute
)

// DefaultDecimalScale is the scale of DECIMAL(38, s) numbers are cast to
// when DialectOptions.Scale is unset: cents and most measured values fit,
// and 36 integer digits remain.
const DefaultDecimalScale = 2

// DialectOptions say which engine a SELECT is rewritten for and where that
// engine finds each table's export.
type DialectOptions struct {
	// Dialect is parser.DialectAthena or parser.DialectDuckDB.
	Dialect string
	// Source is SourceJSON (default), SourceIon (Athena only) or
	// SourceParquet.
	Source string
	// Locations maps a table name to where its data is: for Athena an S3
	// prefix (s3://bucket/…/AWSDynamoDB/<id>/data/), for DuckDB a path or
	// glob of its files. DefaultLocation is for a table not in Locations;
	// for DuckDB, LocalLocations next (the --data export folders). A
	// table with none gets a placeholder to replace.
	Locations       map[string]string
	DefaultLocation string
	LocalLocations  map[string]string
	// Scale is s of DECIMAL(38, s), the type every DynamoDB number is read
	// as; 0 with ScaleSet false means DefaultDecimalScale.
	Scale    int
	ScaleSet bool
	// PartitionBy are the Hive partition columns of a Parquet layout
	// (COL=value/ folders), which the table declares as partitions.
	PartitionBy []string
}

func (o DialectOptions) scale() int {
	if o.ScaleSet {
		return o.Scale
	}
	return DefaultDecimalScale
}

// ExplainDialect rewrites a SELECT for Athena (Trino) or DuckDB over the
// exports of the tables it reads: the DDL of each table, then the
// statement. It binds the statement as PlanSelect does, so names, paths,
// aliases and functions mean what they mean to ddbsql, and renders the
// bound expressions; it sends no request. What it cannot translate is an
// unsupported error naming the construct.
func ExplainDialect(ctx context.Context, cat Catalog, sel *parser.Select, opts Options, d DialectOptions) (string, error) {
	switch d.Dialect {
	case parser.DialectAthena, parser.DialectDuckDB:
	default:
		return "", errorf(diag.CodeInvalid, "unknown dialect %q: EXPLAIN ATHENA or EXPLAIN DUCKDB", d.Dialect)
	}
	if d.Source == "" {
		d.Source = SourceJSON
	}
	switch d.Source {
	case SourceJSON, SourceParquet:
	case SourceIon:
		if d.Dialect == parser.DialectDuckDB {
			return "", errorf(diag.CodeUnsupported, "DuckDB cannot read Amazon Ion exports").
				Hintf("export the table as DYNAMODB_JSON, or convert it with ddbsql --format parquet and use --athena-source parquet")
		}
	default:
		return "", errorf(diag.CodeInvalid, "unknown export source %q: json, ion or parquet", d.Source)
	}
	if s := d.scale(); s < 0 || s > 38 {
		return "", errorf(diag.CodeInvalid, "decimal scale %d is out of range: DECIMAL(38, s) needs 0 <= s <= 38", s)
	}
	opts.AllowScan = true // nothing is read: the engine scans the export
	if sel.Query != nil || len(sel.Derived) > 0 {
		qs := newQueryScopes()
		qs.prepare(sel, nil, map[*cteDef]int{})
		opts.queries = qs
	}
	out := &dialectOut{d: d, scale: d.scale(), nodes: map[string]*ddlNode{}, queries: map[string]*namedQuery{}}
	query, _, err := out.statement(ctx, cat, sel, opts)
	if err != nil {
		return "", err
	}
	return out.assemble(query), nil
}

// bindOnly resolves FROM and binds every clause of a SELECT, as
// planSelectWith does before it chooses reads.
func bindOnly(ctx context.Context, cat Catalog, in SelectInput, opts Options) (*selectPlanner, error) {
	sp := &selectPlanner{ctx: ctx, cat: cat, opts: opts, ast: in.AST, texts: in.ItemTexts, count: -1}
	if err := sp.resolveFrom(in.Paths); err != nil {
		return nil, err
	}
	sp.b.now = opts.Now
	sp.b.windows = in.Windows
	sp.b.subq = &subqueries{ctx: ctx, cat: cat, opts: opts, paths: in.Paths, windows: in.Windows}
	suspects := sp.suspectQuoted(in.QuotedValues)
	if err := sp.bindClauses(); err != nil {
		return nil, withQuotedHint(err, suspects)
	}
	return sp, nil
}

// engineName is the dialect as users know it.
func (o DialectOptions) engineName() string {
	if o.Dialect == parser.DialectDuckDB {
		return "DuckDB"
	}
	return "Athena"
}

// refuse is the error for a construct the rewrite does not translate.
func (o DialectOptions) refuse(construct string, args ...any) *diag.Error {
	what := fmt.Sprintf(construct, args...)
	return errorf(diag.CodeUnsupported, "EXPLAIN %s cannot rewrite %s", strings.ToUpper(o.engineName()), what).
		Hintf("run the statement with ddbsql, or write that part in %s's SQL by hand", o.engineName())
}

// dialectOut is one EXPLAIN ATHENA/DUCKDB answer being written: the
// tables every SELECT of the statement reads, with what each reads of
// them, and the notes printed above the statement.
type dialectOut struct {
	d      DialectOptions
	scale  int
	tables []*TableDef
	nodes  map[string]*ddlNode // by table name
	notes  []string
	// queries are the statement's WITH queries and derived tables by
	// name, with the types of their columns once rendered.
	queries map[string]*namedQuery
	// lastTypes are the types of the columns of the SELECT rendered
	// last (a compound's: its last member's).
	lastTypes []leafType
	// untypedOut are the output positions where a SELECT rendered since
	// it was last reset reads an untyped column as text.
	untypedOut map[int]bool
}

// table is the DDL node of a table, declared on first use.
func (o *dialectOut) table(t *TableDef) *ddlNode {
	if n, ok := o.nodes[t.Name]; ok {
		return n
	}
	n := newDDLNode()
	o.nodes[t.Name] = n
	o.tables = append(o.tables, t)
	return n
}

// rewriter renders one bound SELECT in a dialect.
type rewriter struct {
	*dialectOut
	sp    *selectPlanner
	types *typing
	// lastNode is the node valueOf reached.
	lastNode *ddlNode
	// subqs are the statement's subqueries, rendered.
	subqs map[*expr.SubqueryResult]*subqueryText
}

func (r *dialectOut) athena() bool { return r.d.Dialect == parser.DialectAthena }

// allExprs lists every bound expression of the statement, clause by clause.
func (r *rewriter) allExprs() []expr.Expr {
	sp := r.sp
	var es []expr.Expr
	for _, on := range sp.ons {
		es = append(es, on...)
	}
	es = append(es, sp.conjuncts...)
	for _, it := range sp.items {
		es = append(es, it.expr)
	}
	es = append(es, sp.groups...)
	if sp.having != nil {
		es = append(es, sp.having)
	}
	for _, k := range sp.order {
		es = append(es, k.Expr)
	}
	return es
}

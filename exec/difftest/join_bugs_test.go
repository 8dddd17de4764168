package difftest

import (
	"context"
	"reflect"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo/dynalitetest"
	"github.com/ddbsql/ddbsql/exec/dynamo/fixtures"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/value"
)

// Direct tests of join semantics and minimal repros of the join bugs the
// differential test found (doc.go, "Joins").

// joinSmall is a set of hand-written tables: {name} in SQL is the table.
type joinSmall struct {
	t      *testing.T
	prefix string
	names  []string
	r      *ddbRunner
}

// smallTable is a table with partition key pk (and sort key sk when sk is
// not ""), both of type typ ("S" or "N"), optionally with a GSI "ByG" on
// attribute g (S); items are given as attribute maps.
func smallTable(name, pk, sk, typ, g string, items ...attrs) *fixtures.Table {
	in := &dynamodb.CreateTableInput{
		TableName:            aws.String(name),
		BillingMode:          types.BillingModePayPerRequest,
		KeySchema:            jkeys(pk, sk),
		AttributeDefinitions: jattrs(pk, typ),
	}
	if sk != "" {
		in.AttributeDefinitions = jattrs(pk, typ, sk, typ)
	}
	if g != "" {
		in.AttributeDefinitions = append(in.AttributeDefinitions, jattrs(g, "S")...)
		in.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{{
			IndexName:  aws.String("ByG"),
			KeySchema:  jkeys(g, ""),
			Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
		}}
	}
	vals := make([]value.Value, len(items))
	for i, a := range items {
		vals[i] = value.MapOf(a)
	}
	return &fixtures.Table{Name: name, Create: in, Items: vals}
}

func newJoinSmall(t *testing.T, tables ...*fixtures.Table) *joinSmall {
	t.Helper()
	s := &joinSmall{t: t, prefix: dynalitetest.Prefix(t), r: newDDB(t)}
	for _, tb := range tables {
		s.names = append(s.names, tb.Name)
	}
	if err := fixtures.Load(context.Background(), dynalitetest.Client(t), s.prefix, tables...); err != nil {
		t.Fatal(err)
	}
	return s
}

func (s *joinSmall) sql(text string) string {
	for _, n := range s.names {
		text = strings.ReplaceAll(text, "{"+n+"}", "`"+s.prefix+n+"`")
	}
	return text
}

func (s *joinSmall) try(text string, scan bool) ([][]string, error) {
	raw, err := s.r.run(context.Background(), s.sql(text), scan)
	if err != nil {
		return nil, err
	}
	out := make([][]string, len(raw))
	for i, r := range raw {
		out[i] = make([]string, len(r))
		for k, v := range r {
			out[i][k] = cellText(v)
		}
	}
	return out, nil
}

// want checks the rows, each written as its cells joined by " | ".
func (s *joinSmall) want(text string, scan bool, want ...string) {
	s.t.Helper()
	rows, err := s.try(text, scan)
	if err != nil {
		s.t.Errorf("%s: %v", text, err)
		return
	}
	got := make([]string, len(rows))
	for i, r := range rows {
		got[i] = strings.Join(r, " | ")
	}
	if !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
		s.t.Errorf("%s\n got  %q\n want %q", text, got, want)
	}
}

// wantErr checks that the statement fails with an error containing every part.
func (s *joinSmall) wantErr(text string, scan bool, parts ...string) {
	s.t.Helper()
	_, err := s.try(text, scan)
	if err == nil {
		s.t.Errorf("%s: want an error containing %q, got rows", text, parts)
		return
	}
	for _, p := range parts {
		for _, n := range s.names {
			p = strings.ReplaceAll(p, "{"+n+"}", s.prefix+n)
		}
		if !strings.Contains(err.Error(), p) {
			s.t.Errorf("%s: error lacks %q:\n%v", text, p, err)
		}
	}
}

// joinSemantics loads a driving table d (pk S, id N) and three targets:
// a (ak S), b (bk S, s N: item collections), g (id S, GSI ByG on grp).
func joinSemantics(t *testing.T) *joinSmall {
	d := smallTable("d", "pk", "id", "", "",
		attrs{"pk": str("P"), "id": num("1"), "ak": str("A1"), "bk": str("B1"), "grp": str("G1"), "s": str("x")},
		attrs{"pk": str("P"), "id": num("2"), "ak": str("A1"), "bk": str("B2"), "grp": str("G9"), "s": str("")}, // duplicate key; dangling b and grp
		attrs{"pk": str("P"), "id": num("3"), "ak": num("1"), "bk": value.NullValue(), "s": str("y")},           // wrong type, NULL, missing
		attrs{"pk": str("P"), "id": num("4"), "ak": str(""), "bk": str("B1"), "grp": str("G1")},                 // "" never matches a key
	)
	d.Create.AttributeDefinitions = jattrs("pk", "S", "id", "N")
	a := smallTable("a", "ak", "", "S", "", attrs{"ak": str("A1"), "v": num("10")}, attrs{"ak": str("1"), "v": num("11")})
	b := smallTable("b", "bk", "s", "", "",
		attrs{"bk": str("B1"), "s": num("1"), "v": str("x")}, attrs{"bk": str("B1"), "s": num("2"), "v": str("")},
		attrs{"bk": str("B3"), "s": num("1")})
	b.Create.AttributeDefinitions = jattrs("bk", "S", "s", "N")
	g := smallTable("g", "id", "", "S", "grp",
		attrs{"id": str("g1"), "grp": str("G1")}, attrs{"id": str("g2"), "grp": str("G1")}, attrs{"id": str("g3")})
	x := smallTable("x", "id", "", "S", "", attrs{"id": str("x1"), "ak": str("A1")})
	x.Create.GlobalSecondaryIndexes = []types.GlobalSecondaryIndex{{
		IndexName:  aws.String("ByAk"),
		KeySchema:  jkeys("ak", ""),
		Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll},
	}}
	x.Create.AttributeDefinitions = jattrs("id", "S", "ak", "S")
	return newJoinSmall(t, d, a, b, g, x)
}

// TestJoinSemanticsKeys pins how join keys match: by DynamoDB type and
// value; NULL, missing, the wrong type and "" never match; duplicates on
// either side multiply; dangling references drop (INNER) or NULL-extend (LEFT).
func TestJoinSemanticsKeys(t *testing.T) {
	s := joinSemantics(t)
	// BatchGetItem lookup: id 3's ak is the number 1, a has the string "1": no match.
	s.want("SELECT d.id, a.v FROM {d} d JOIN {a} a ON a.ak = d.ak WHERE d.pk = 'P' ORDER BY d.id", false, "1 | 10", "2 | 10")
	s.want("SELECT d.id, a.v FROM {d} d LEFT JOIN {a} a ON a.ak = d.ak WHERE d.pk = 'P' ORDER BY d.id", false,
		"1 | 10", "2 | 10", "3 | NULL", "4 | NULL")
	// Query lookup (item collections): several matches per key.
	s.want("SELECT d.id, b.s FROM {d} d LEFT JOIN {b} b ON b.bk = d.bk WHERE d.pk = 'P' ORDER BY d.id, b.s", false,
		"1 | 1", "1 | 2", "2 | NULL", "3 | NULL", "4 | 1", "4 | 2")
	// GSI lookup: an item without grp is not in the index, and never matches anyway.
	s.want("SELECT d.id, g.id FROM {d} d JOIN {g} g ON g.grp = d.grp WHERE d.pk = 'P' ORDER BY d.id, g.id", false,
		`1 | "g1"`, `1 | "g2"`, `4 | "g1"`, `4 | "g2"`)
	// A hash join (no key path, --allow-scan) follows SQL: "" = "" matches,
	// NULL and missing do not.
	s.want("SELECT d.id, b.bk, b.s FROM {d} d JOIN {b} b ON b.v = d.s WHERE d.pk = 'P' ORDER BY d.id", true,
		`1 | "B1" | 1`, `2 | "B1" | 2`)
	// WHERE on the optional side filters the NULL-extended rows; ON does not.
	s.want("SELECT d.id FROM {d} d LEFT JOIN {b} b ON b.bk = d.bk WHERE d.pk = 'P' AND b.s IS NULL ORDER BY d.id", false, "2", "3")
	s.want("SELECT d.id, b.s FROM {d} d LEFT JOIN {b} b ON b.bk = d.bk AND b.s > 1 WHERE d.pk = 'P' ORDER BY d.id", false,
		"1 | 2", "2 | NULL", "3 | NULL", "4 | 2")
	s.want("SELECT d.id, b.s FROM {d} d LEFT JOIN {b} b ON b.bk = d.bk AND d.id > 1 WHERE d.pk = 'P' ORDER BY d.id, b.s", false,
		"1 | NULL", "2 | NULL", "3 | NULL", "4 | 1", "4 | 2")
	// Aggregates over a LEFT join count the matches only.
	s.want("SELECT COUNT(*), COUNT(b.s), COUNT(DISTINCT d.id) FROM {d} d LEFT JOIN {b} b ON b.bk = d.bk WHERE d.pk = 'P'", false, "6 | 4 | 4")
}

// Found by TestJoinDifferential, fixed in planner/join.go (next): with a
// LEFT join anywhere in the statement, every INNER join's ON conditions
// were looked for among the LEFT joins' (tied to their step), so an INNER
// join had no keys: an internal error (index out of range in noKeyPath),
// or, when the INNER side had key conditions of its own, a hash join
// without keys and wrong results.
func TestJoinBugInnerAfterLeft(t *testing.T) {
	s := joinSemantics(t)
	s.want("SELECT d.id, a.v, b.s FROM {d} d LEFT JOIN {a} a ON a.ak = d.ak JOIN {b} b ON b.bk = d.bk WHERE d.pk = 'P' ORDER BY d.id, b.s", false,
		"1 | 10 | 1", "1 | 10 | 2", "4 | NULL | 1", "4 | NULL | 2")
	s.want("SELECT d.id, a.v, b.s FROM {d} d JOIN {b} b ON b.bk = d.bk LEFT JOIN {a} a ON a.ak = d.ak WHERE d.pk = 'P' ORDER BY d.id, b.s", false,
		"1 | 10 | 1", "1 | 10 | 2", "4 | NULL | 1", "4 | NULL | 2")
	// The INNER side read by key: a hash join on the right keys.
	s.want("SELECT d.id, b.s FROM {d} d LEFT JOIN {a} a ON a.ak = d.ak JOIN {b} b ON b.bk = d.bk WHERE d.pk = 'P' AND b.bk = 'B1' AND b.s = 2 ORDER BY d.id", false,
		"1 | 2", "4 | 2")
	// A join without an equality is an error, not a crash.
	s.wantErr("SELECT d.id FROM {d} d LEFT JOIN {a} a ON a.v > d.id WHERE d.pk = 'P'", true, "a is not linked to the other tables by an equality")
	s.wantErr("SELECT d.id FROM {d} d LEFT JOIN {a} a ON a.ak = d.ak JOIN {b} b ON b.s > d.id WHERE d.pk = 'P'", true, "b is not linked to the other tables by an equality")
}

// Found by TestJoinDifferential, fixed in planner/joinstrategy.go and
// join.go (asJoinKey, noKeyPath): an equality with an expression on the
// joined side (ON LOWER(a.x) = d.y) was not recognised as a join key, so
// even --allow-scan failed with "a is not linked … by an equality"; and an
// expression on the other side of a key attribute (ON a.ak = UPPER(d.ak))
// was reported as "k is not the partition key of a", which it is.
func TestJoinBugExpressionKeys(t *testing.T) {
	s := joinSemantics(t)
	// LOWER and UPPER of a number are its text (MySQL): id 3's ak 1 matches "1".
	s.want("SELECT d.id, a.v FROM {d} d JOIN {a} a ON LOWER(a.ak) = LOWER(d.ak) WHERE d.pk = 'P' ORDER BY d.id", true, "1 | 10", "2 | 10", "3 | 11")
	s.want("SELECT d.id, a.v FROM {d} d LEFT JOIN {a} a ON CONCAT(a.ak, '') = d.ak WHERE d.pk = 'P' ORDER BY d.id", true,
		"1 | 10", "2 | 10", "3 | NULL", "4 | NULL")
	s.want("SELECT d.id, a.v FROM {d} d JOIN {a} a ON a.ak = UPPER(d.ak) WHERE d.pk = 'P' ORDER BY d.id", true, "1 | 10", "2 | 10", "3 | 11")
	s.wantErr("SELECT d.id FROM {d} d JOIN {a} a ON LOWER(a.ak) = d.ak WHERE d.pk = 'P'", false,
		"cannot join a (table {a}) on lower(a.ak) = d.ak", "DynamoDB keys can only match a plain attribute value, not lower(a.ak)", "--allow-scan")
	s.wantErr("SELECT d.id FROM {d} d JOIN {a} a ON a.ak = UPPER(d.ak) WHERE d.pk = 'P'", false,
		"k is the partition key of {a}, but DynamoDB keys can only match a plain attribute value, not upper(d.ak)", "--allow-scan")
	// A GSI partition key with --consistent: say why, not "not a key".
	s.r.plan(func(o *planner.Options) { o.Consistent = true })
	s.wantErr("SELECT d.id FROM {d} d JOIN {g} g ON g.grp = d.grp WHERE d.pk = 'P'", false,
		"grp is the partition key of the global secondary index ByG", "--consistent")
	s.r.plan(func(o *planner.Options) { o.Consistent = false })
}

// Found while writing the join generator, fixed in planner/joinbind.go
// (usingSource): USING (col) on a join after the second table referred to
// the table just before it when no earlier table has col as a key — in
// FROM d JOIN a USING (ak) JOIN b USING (bk) that is a.bk, although only
// d has bk, so the join silently returned nothing. Items are schemaless,
// so ddbsql cannot know which table has the attribute: it is now an error.
func TestJoinBugUsingAfterTwoTables(t *testing.T) {
	s := joinSemantics(t)
	s.wantErr("SELECT d.id FROM {d} d JOIN {a} a USING (ak) JOIN {b} b USING (bk) WHERE d.pk = 'P'", false,
		"USING (bk) is ambiguous", "which of d, a has bk", "ON d.bk = b.bk")
	// Unambiguous: the only earlier table…
	s.want("SELECT d.id, b.s FROM {d} d JOIN {b} b USING (bk) WHERE d.pk = 'P' ORDER BY d.id, b.s", false, "1 | 1", "1 | 2", "4 | 1", "4 | 2")
	s.want("SELECT d.id, a.v, b.s FROM {d} d JOIN {a} a USING (ak) JOIN {b} b ON b.bk = d.bk WHERE d.pk = 'P' ORDER BY d.id, b.s", false,
		"1 | 10 | 1", "1 | 10 | 2")
	// …or the earlier table keyed by the column (a.ak, not d.ak).
	s.want("SELECT d.id, a.v, x.ak FROM {d} d JOIN {a} a USING (ak) JOIN {x} x USING (ak) WHERE d.pk = 'P' ORDER BY d.id", false,
		`1 | 10 | "A1"`, `2 | 10 | "A1"`)
}

// Fixed in planner/bind.go: an unqualified USING column named the joined
// table's attribute, so `SELECT bk FROM d LEFT JOIN b USING (bk)` was NULL
// for rows without a match, where SQL (MySQL, SQLite) returns the coalesced
// column, i.e. d.bk. The binder now resolves it to the left side.
func TestJoinBugUsingColumnOfLeftJoin(t *testing.T) {
	s := joinSemantics(t)
	s.want("SELECT d.id, bk FROM {d} d LEFT JOIN {b} b USING (bk) WHERE d.pk = 'P' AND d.id = 2", false, `2 | "B2"`)
}

// Fixed in planner/selfjoin.go: the item-collection query suggested for a
// self-join used begins_with on a numeric sort key (begins_with applies to
// strings only) and quoted a numeric partition key.
func TestJoinBugSelfJoinHintNumericKeys(t *testing.T) {
	s := joinSemantics(t)
	s.wantErr("SELECT x.id FROM {d} x JOIN {d} y ON y.ak = x.ak WHERE x.pk = 'P'", false,
		"self-join of table {d} (as x and y)", "SELECT … FROM {d} WHERE pk = '…' [AND id BETWEEN … AND …]")
}

// planner/selectlist.go, exec/engine/starop.go: SELECT a.* in a join returned
// the whole joined row (every table's attributes), as SELECT * does; SQL
// returns a's columns only. Found writing the join generator's alias.*,
// which then also showed that the Sort must run below the projection.
func TestJoinBugQualifiedStar(t *testing.T) {
	s := joinSemantics(t)
	q := "SELECT a.* FROM {d} d JOIN {a} a ON a.ak = d.ak WHERE d.pk = 'P' AND d.id = 1"
	if _, err := s.try(q, false); err != nil {
		t.Fatal(err)
	}
	if want := [][]string{{"ak", "v"}}; !reflect.DeepEqual(s.r.keys, want) {
		t.Errorf("%s: keys %q, want %q", q, s.r.keys, want)
	}
	q = "SELECT d.* FROM {d} d LEFT JOIN {b} b ON b.bk = d.bk WHERE d.pk = 'P' AND d.id IN (1, 3) ORDER BY d.id, b.s"
	if _, err := s.try(q, false); err != nil {
		t.Fatal(err)
	}
	dKeys := []string{"pk", "id", "ak", "bk", "grp", "s"}
	if want := [][]string{dKeys, dKeys, {"pk", "id", "ak", "bk", "s"}}; !reflect.DeepEqual(s.r.keys, want) {
		t.Errorf("%s: keys %q, want %q", q, s.r.keys, want)
	}
	// ORDER BY another table's columns, which b.* does not output: the
	// sort runs before the projection.
	s.want("SELECT b.* FROM {d} d JOIN {b} b ON b.bk = d.bk WHERE d.pk = 'P' AND d.id IN (1, 4) ORDER BY b.s DESC, d.id", false,
		`"B1" | 2 | ""`, `"B1" | 2 | ""`, `"B1" | 1 | "x"`, `"B1" | 1 | "x"`)
}

package session_test

import (
	"context"
	"errors"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/dynamo/dynalitetest"
	"github.com/ddbsql/ddbsql/exec/dynamo/fixtures"
	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/exec/dynamo/wire"
	"github.com/ddbsql/ddbsql/exec/session"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/value"
)

// djTables builds a table whose partitions, sparse GSIs and LSI overlap, so
// that the branches of an OR return some items twice, and a table of the
// customers its items refer to (some references dangle or are missing).
//
//	djt (PK S, SK S): 200 items, PK "P0".."P4" (i%5), SK "S000".."S199"
//	  GSI ByG (G, GS) KEYS_ONLY: G "G0".."G2" (i%3) unless i%4 == 0
//	  GSI ByH (H) ALL: H "H0".."H3" (i/10%4) on even i
//	  LSI ByT (PK, t) KEYS_ONLY: t "T0".."T6" (i%7) when i%3 == 0
//	  n N (i%7): missing, DynamoDB NULL or a number by (i/5)%6
//	  s S "s0".."s3", missing when i%3 == 1; ref "c00".."c11", missing when i%11 == 0
//	djc (id S): c00..c09 with name
func djTables() (items, custs *fixtures.Table) {
	s := func(n string) types.AttributeDefinition {
		return types.AttributeDefinition{AttributeName: aws.String(n), AttributeType: types.ScalarAttributeTypeS}
	}
	key := func(h, r string) []types.KeySchemaElement {
		ks := []types.KeySchemaElement{{AttributeName: aws.String(h), KeyType: types.KeyTypeHash}}
		if r != "" {
			ks = append(ks, types.KeySchemaElement{AttributeName: aws.String(r), KeyType: types.KeyTypeRange})
		}
		return ks
	}
	items = &fixtures.Table{Name: "djt", Create: &dynamodb.CreateTableInput{
		TableName:            aws.String("djt"),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{s("PK"), s("SK"), s("G"), s("GS"), s("H"), s("t")},
		KeySchema:            key("PK", "SK"),
		GlobalSecondaryIndexes: []types.GlobalSecondaryIndex{
			{IndexName: aws.String("ByG"), KeySchema: key("G", "GS"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}},
			{IndexName: aws.String("ByH"), KeySchema: key("H", ""), Projection: &types.Projection{ProjectionType: types.ProjectionTypeAll}},
		},
		LocalSecondaryIndexes: []types.LocalSecondaryIndex{
			{IndexName: aws.String("ByT"), KeySchema: key("PK", "t"), Projection: &types.Projection{ProjectionType: types.ProjectionTypeKeysOnly}},
		},
	}}
	for i := 0; i < 200; i++ {
		a := map[string]value.Value{
			"PK": value.Str(fmt.Sprintf("P%d", i%5)),
			"SK": value.Str(fmt.Sprintf("S%03d", i)),
		}
		if i%4 != 0 {
			a["G"], a["GS"] = value.Str(fmt.Sprintf("G%d", i%3)), value.Str(fmt.Sprintf("%03d", i))
		}
		if i%2 == 0 {
			a["H"] = value.Str(fmt.Sprintf("H%d", i/10%4))
		}
		if i%3 == 0 {
			a["t"] = value.Str(fmt.Sprintf("T%d", i%7))
		}
		switch (i / 5) % 6 {
		case 0:
		case 1:
			a["n"] = value.NullValue()
		default:
			a["n"] = value.NumTrusted(fmt.Sprint(i % 7))
		}
		if i%3 != 1 {
			a["s"] = value.Str(fmt.Sprintf("s%d", i%4))
		}
		if i%11 != 0 {
			a["ref"] = value.Str(fmt.Sprintf("c%02d", i%12))
		}
		items.Items = append(items.Items, value.MapOf(a))
	}
	custs = &fixtures.Table{Name: "djc", Create: &dynamodb.CreateTableInput{
		TableName:            aws.String("djc"),
		BillingMode:          types.BillingModePayPerRequest,
		AttributeDefinitions: []types.AttributeDefinition{s("id")},
		KeySchema:            key("id", ""),
	}}
	for i := 0; i < 10; i++ {
		custs.Items = append(custs.Items, value.MapOf(map[string]value.Value{
			"id": value.Str(fmt.Sprintf("c%02d", i)), "name": value.Str(fmt.Sprintf("cust %d", i))}))
	}
	return items, custs
}

// djBackend is one DynamoDB the disjunction tests run on.
type djBackend struct {
	name   string
	client dynamo.Client
	setup  func(*session.Config)
	d, c   string // the two tables' names
}

// djBackends loads the tables into the in-process backend and into
// dynalite, which is read both through the SDK and through the raw
// decoder the command line uses.
func djBackends(t *testing.T) []djBackend {
	t.Helper()
	ctx := context.Background()
	items, custs := djTables()
	db := memdb.New()
	if err := fixtures.Load(ctx, db, "", items, custs); err != nil {
		t.Fatal(err)
	}
	client := dynalitetest.Client(t)
	prefix := dynalitetest.Prefix(t)
	if err := fixtures.Load(ctx, client, prefix, items, custs); err != nil {
		t.Fatal(err)
	}
	d, c := items.Named(prefix), custs.Named(prefix)
	return []djBackend{
		{name: "memdb", client: db, d: "djt", c: "djc"},
		{name: "dynalite", client: client, d: d, c: c},
		{name: "dynalite raw", client: client, setup: func(cfg *session.Config) { cfg.Raw = wire.New(client) }, d: d, c: c},
	}
}

func (b djBackend) sql(text string) string {
	return strings.NewReplacer("{d}", "`"+b.d+"`", "{c}", "`"+b.c+"`").Replace(text)
}

func (b djBackend) with(more func(*session.Config)) func(*session.Config) {
	return func(cfg *session.Config) {
		if b.setup != nil {
			b.setup(cfg)
		}
		if more != nil {
			more(cfg)
		}
	}
}

// djCase is a statement whose WHERE is a disjunction; the same statement
// with WHERE NOT (NOT (…)) cannot use its key conditions and runs as a
// Scan, the reference.
type djCase struct {
	sel, where, tail string
	union            bool // planned as a Union (else one keyed read)
	ordered          bool // rows compare in order
	limit            int  // LIMIT without a total order: this many rows, all in the reference
}

var djCases = []djCase{
	// One IN list, one BatchGetItem.
	{sel: "SELECT PK, SK, n FROM {d}", where: "PK = 'P1' OR PK = 'P3' OR PK IN ('P3', 'P9')"},
	{sel: "SELECT * FROM {d}", where: "(PK = 'P1' AND SK = 'S006') OR (PK = 'P2' AND SK IN ('S007', 'S012')) OR (PK = 'P9' AND SK = 'S000') OR (SK = 'S006' AND PK = 'P1')"},
	{sel: "SELECT SK, s FROM {d}", where: "((PK = 'P1' AND SK = 'S006') OR (PK = 'P2' AND SK = 'S012')) AND s IS NOT NULL"},
	// Overlapping branches over the table, both GSIs (one KEYS_ONLY, so
	// fetched) and the LSI, with filters over NULL and missing attributes.
	{sel: "SELECT PK, SK, G, n, s FROM {d}", where: "PK = 'P1' OR G = 'G1'", union: true},
	{sel: "SELECT PK, SK FROM {d}", where: "(PK = 'P2' AND SK >= 'S050') OR (PK = 'P2' AND SK <= 'S120')", union: true},
	{sel: "SELECT PK, SK, n, s, t FROM {d}", where: "(PK = 'P0' AND n > 3) OR (H = 'H2' AND s IS NULL) OR (PK = 'P4' AND t >= 'T3') OR (G = 'G0' AND n IS NULL)", union: true},
	{sel: "SELECT * FROM {d}", where: "H = 'H1' OR G = 'G2' OR PK = 'P0'", union: true},
	{sel: "SELECT PK, SK FROM {d}", where: "PK = 'P3' AND (SK = 'S003' OR SK BETWEEN 'S150' AND 'S170' OR t = 'T2')", union: true},
	// A key condition outside the OR: one read of the partition.
	{sel: "SELECT PK, SK FROM {d}", where: "PK = 'P3' AND (SK = 'S003' OR n IS NULL OR s = 's2')"},
	// ORDER BY, LIMIT, DISTINCT and aggregates above a union.
	{sel: "SELECT PK, SK, n FROM {d}", where: "PK = 'P1' OR G = 'G1'", tail: "ORDER BY SK DESC, PK LIMIT 7", union: true, ordered: true},
	{sel: "SELECT PK, SK FROM {d}", where: "PK = 'P1' OR G = 'G1'", tail: "ORDER BY n, SK LIMIT 5 OFFSET 3", union: true, ordered: true},
	{sel: "SELECT PK, SK FROM {d}", where: "PK = 'P1' OR H = 'H3'", tail: "LIMIT 5", union: true, limit: 5},
	{sel: "SELECT COUNT(*) FROM {d}", where: "PK = 'P1' OR G = 'G1' OR H = 'H0'", union: true},
	{sel: "SELECT n, COUNT(*), COUNT(s) FROM {d}", where: "H = 'H1' OR G = 'G2'", tail: "GROUP BY n", union: true},
	{sel: "SELECT DISTINCT s FROM {d}", where: "(PK = 'P0' AND SK < 'S100') OR H = 'H2'", union: true},
	// Joins: a union drives a lookup join, and is the build side of a hash join.
	{sel: "SELECT d.PK, d.SK, c.name FROM {d} d JOIN {c} c ON c.id = d.ref", where: "d.PK = 'P1' OR d.G = 'G0'", union: true},
	{sel: "SELECT c.id, d.SK FROM {c} c JOIN {d} d ON d.ref = c.id", where: "c.id IN ('c01', 'c02', 'c07') AND (d.PK = 'P1' OR d.H = 'H3')", union: true},
}

func (c djCase) sql(where string) string {
	return strings.TrimSpace(c.sel + " WHERE " + where + " " + c.tail)
}

// TestDisjunctionsMatchScans runs each disjunction by key and as a Scan on
// every backend: the same rows, no Scan request for the keyed plan, and a
// Union exactly where expected.
func TestDisjunctionsMatchScans(t *testing.T) {
	for _, b := range djBackends(t) {
		t.Run(b.name, func(t *testing.T) {
			for _, c := range djCases {
				keyedSQL := b.sql(c.sql(c.where))
				scanSQL := b.sql(c.sql("NOT (NOT (" + c.where + "))"))
				keyed := mustRun(t, b.client, b.with(nil), keyedSQL)
				scan := mustRun(t, b.client, b.with(allowScan), scanSQL)
				if n := keyed.Stats.ByOperation["Scan"]; n != 0 {
					t.Errorf("%s: %d Scan requests", keyedSQL, n)
				}
				if scan.Stats.ByOperation["Scan"] == 0 {
					t.Fatalf("%s: the reference read no Scan: %+v", scanSQL, scan.Stats.ByOperation)
				}
				plan := explainText(t, b.client, keyedSQL)
				if got := strings.Contains(plan, "Union (client)"); got != c.union {
					t.Errorf("%s: planned as a union: %v, want %v\n%s", keyedSQL, got, c.union, plan)
				}
				got, want := keyed.rows(), scan.rows()
				if len(want) == 0 {
					t.Fatalf("%s: the reference returned no rows; the case tests nothing", scanSQL)
				}
				switch {
				case c.limit > 0:
					all := mustRun(t, b.client, b.with(allowScan), b.sql(strings.TrimSpace(c.sel+" WHERE NOT (NOT ("+c.where+"))"))).rows()
					if len(got) != c.limit || !subsetOf(got, all) {
						t.Errorf("%s: %d rows %v, want %d of %v", keyedSQL, len(got), got, c.limit, all)
					}
				case c.ordered:
					if fmt.Sprint(got) != fmt.Sprint(want) {
						t.Errorf("%s:\n got %v\nwant %v", keyedSQL, got, want)
					}
				default:
					if fmt.Sprint(sorted(got)) != fmt.Sprint(sorted(want)) {
						t.Errorf("%s:\n got %v\nwant %v", keyedSQL, sorted(got), sorted(want))
					}
				}
			}
		})
	}
}

func explainText(t *testing.T, client dynamo.Client, sql string) string {
	t.Helper()
	r := run(t, client, nil, "EXPLAIN "+sql)
	if r.Error != nil {
		t.Fatalf("EXPLAIN %s: %v", sql, r.Error)
	}
	return r.Out
}

func sorted(rows []string) []string {
	out := append([]string(nil), rows...)
	sort.Strings(out)
	return out
}

func subsetOf(rows, all []string) bool {
	have := map[string]int{}
	for _, r := range all {
		have[r]++
	}
	for _, r := range rows {
		if have[r] == 0 {
			return false
		}
		have[r]--
	}
	return true
}

// TestDisjunctionOverlapComesOnce checks that items two branches both
// return appear once: the result is the union of what each branch returns
// alone, and the branches do share items.
func TestDisjunctionOverlapComesOnce(t *testing.T) {
	for _, b := range djBackends(t)[:2] {
		t.Run(b.name, func(t *testing.T) {
			branches := []string{"PK = 'P1'", "G = 'G1'", "H = 'H2' AND n IS NOT NULL"}
			all := map[string]bool{}
			total := 0
			for _, br := range branches {
				rows := mustRun(t, b.client, nil, b.sql("SELECT PK, SK FROM {d} WHERE "+br)).rows()
				total += len(rows)
				for _, r := range rows {
					all[r] = true
				}
			}
			if total == len(all) {
				t.Fatalf("the branches share no item (%d rows); the test proves nothing", total)
			}
			got := mustRun(t, b.client, nil, b.sql("SELECT PK, SK FROM {d} WHERE "+strings.Join(branches, " OR "))).rows()
			seen := map[string]bool{}
			for _, r := range got {
				if seen[r] {
					t.Errorf("%s appears twice", r)
				}
				seen[r] = true
				if !all[r] {
					t.Errorf("%s is in no branch", r)
				}
			}
			if len(seen) != len(all) {
				t.Errorf("%d distinct rows, want %d (of %d with duplicates)", len(seen), len(all), total)
			}
		})
	}
}

// TestDisjunctionLimitReadsLazily: with LIMIT met by the first branch, the
// later branches send no request, and EXPLAIN ANALYZE says they never ran.
func TestDisjunctionLimitReadsLazily(t *testing.T) {
	for _, b := range djBackends(t)[:2] {
		t.Run(b.name, func(t *testing.T) {
			sql := b.sql("SELECT PK, SK FROM {d} WHERE PK = 'P1' OR H = 'H2' OR G = 'G0' LIMIT 3")
			sp := spy(b.client)
			r := mustRun(t, sp, nil, sql)
			if len(r.rows()) != 3 {
				t.Fatalf("%d rows, want 3", len(r.rows()))
			}
			if reqs := sp.requests(); len(reqs) != 1 || reqs[0].Op != "Query" {
				t.Errorf("requests %+v, want one Query (the first branch)", reqs)
			}
			out := mustRun(t, b.client, nil, "EXPLAIN ANALYZE "+sql).Out
			if n := strings.Count(out, "actual: never ran"); n != 2 {
				t.Errorf("EXPLAIN ANALYZE shows %d branches that never ran, want 2:\n%s", n, out)
			}
			if !strings.Contains(out, "Union (client): 3 OR branches") {
				t.Errorf("EXPLAIN ANALYZE shows no union:\n%s", out)
			}
		})
	}
}

// TestDisjunctionErrors: a branch without a key condition, --strict and
// --consistent fail before any request, saying why.
func TestDisjunctionErrors(t *testing.T) {
	b := djBackends(t)[0]
	cases := []struct {
		sql   string
		setup func(*session.Config)
		code  diag.Code
		parts []string
	}{
		{"SELECT SK FROM {d} WHERE PK = 'P1' OR s = 's1'", nil, diag.CodeScanNotAllowed,
			[]string{"OR of 2 branches", "branch 2 (s = 's1') has no key condition", "to that branch"}},
		{"SELECT SK FROM {d} WHERE PK = 'P1' OR G = 'G1'", func(cfg *session.Config) { cfg.Plan.Strict = true }, diag.CodeStrict,
			[]string{"OR of 2 branches", "(PK = 'P1') OR (G = 'G1')"}},
		{"SELECT SK FROM {d} WHERE PK = 'P1' OR G = 'G1'", func(cfg *session.Config) { cfg.Plan.Consistent = true }, diag.CodeConsistentIndex,
			[]string{"global secondary index ByG"}},
	}
	for _, c := range cases {
		sp := spy(b.client)
		r := run(t, sp, c.setup, b.sql(c.sql))
		var pe *diag.Error
		if !errors.As(r.Error, &pe) || pe.Phase != diag.Plan || pe.Code != c.code {
			t.Errorf("%s: %v, want code %s", c.sql, r.Error, c.code)
			continue
		}
		for _, p := range c.parts {
			if !strings.Contains(pe.Error(), p) {
				t.Errorf("%s: %q does not say %q", c.sql, pe.Error(), p)
			}
		}
		if n := len(sp.requests()); n != 0 {
			t.Errorf("%s: %d requests before the error", c.sql, n)
		}
	}
	// --strict accepts an OR that is one IN list.
	r := run(t, b.client, func(cfg *session.Config) { cfg.Plan.Strict = true }, b.sql("SELECT SK FROM {d} WHERE PK = 'P1' OR PK = 'P2'"))
	if r.Error != nil {
		t.Errorf("--strict rejected an OR of partition keys: %v", r.Error)
	}
}

// TestDisjunctionExplainAnalyze: the actual figures EXPLAIN ANALYZE shows
// for a union's branches (fetches included) add up to the statement's.
func TestDisjunctionExplainAnalyze(t *testing.T) {
	b := djBackends(t)[0]
	for _, where := range []string{
		"PK = 'P1' OR G = 'G1'",
		"(PK = 'P0' AND n > 3) OR (H = 'H2' AND s IS NULL) OR (PK = 'P4' AND t >= 'T3')",
	} {
		sql := b.sql("SELECT PK, SK, s FROM {d} WHERE " + where)
		plain := mustRun(t, b.client, nil, sql).Stats
		r := mustRun(t, b.client, nil, "EXPLAIN ANALYZE "+sql)
		if !strings.Contains(r.Out, "Union (client)") {
			t.Fatalf("%s: no union:\n%s", sql, r.Out)
		}
		var reqs int
		var read int64
		for _, m := range actualRE.FindAllStringSubmatch(r.Out, -1) {
			n, i := 0, int64(0)
			fmt.Sscan(m[1], &n)
			fmt.Sscan(m[3], &i)
			reqs, read = reqs+n, read+i
		}
		if reqs != plain.Requests || read != plain.ItemsRead || r.Stats.Rows != plain.Rows {
			t.Errorf("%s: actual lines add up to %d requests, %d items read; the statement: %+v\n%s", sql, reqs, read, *plain, r.Out)
		}
		if !strings.Contains(r.Out, fmt.Sprintf("actual: %d rows", plain.Rows)) {
			t.Errorf("%s: the union's actual line does not show the %d rows:\n%s", sql, plain.Rows, r.Out)
		}
	}
}

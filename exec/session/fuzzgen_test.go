package session_test

import (
	"fmt"
	"hash/fnv"
	"math/rand/v2"
	"strings"
	"testing"
)

// FuzzGeneratedStatements is FuzzStatements over statements built from the
// input's bytes with the demo tables' real names, keys and values: most
// mutations of SQL text are syntax errors, while these reach the planner's
// access paths, joins, unions and aggregates and read real items.
func FuzzGeneratedStatements(f *testing.F) {
	for _, b := range generatorSeeds(200) {
		f.Add(b)
	}
	db := fuzzDemo(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		sql := generateStatement(data)
		t.Logf("statement: %.4000s", sql)
		runFuzzStatement(t, db, sql)
	})
}

// generatorSeeds are n deterministic inputs for the generator.
func generatorSeeds(n int) [][]byte {
	var out [][]byte
	for seed := range uint64(n) {
		r := rand.New(rand.NewPCG(seed, 7))
		b := make([]byte, 16+r.IntN(96))
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		out = append(out, b)
	}
	return out
}

// genTable is what the generator knows of a demo table.
type genTable struct {
	name    string
	pk, sk  string
	numeric bool        // numeric keys
	pks     []string    // partition key values (literals)
	sks     []string    // sort key values or prefixes
	indexes [][3]string // name, partition key, sort key ("" for none)
	attrs   []string    // other attributes and document paths
}

var genTables = []genTable{
	{name: "app", pk: "PK", sk: "SK", pks: []string{"'WS#acme'", "'WS#hooli'", "'WS#initech'", "'DOC#0127'", "'USER#u_002'", "'WS#umbrella'"},
		sks: []string{"'META'", "'DOC#'", "'WS#wonka'", "'DOC#0001'"}, indexes: [][3]string{{"GSI1", "GSI1PK", "GSI1SK"}, {"ByUpdated", "PK", "updatedAt"}},
		attrs: []string{"title", "status", "Type", "createdBy", "views", "public", "token", "workspace", "role", "updatedAt", "createdAt", "GSI1PK", "GSI1SK", "info.rating", "tags[0]", "`my-attr`"}},
	{name: "leaderboard", pk: "partitionId", sk: "rangeId", pks: []string{"'PLAYER#p0021'", "'PLAYER#p0087'", "'SEASON#2026-Q2'"},
		sks: []string{"'MATCH#'", "'PROFILE'", "'MATCH#2026-04-04T13:22:00Z'"}, indexes: [][3]string{{"handle", "handle", ""}, {"season", "gsiPartition", "gsiSort"}},
		attrs: []string{"Type", "deaths", "kills", "map", "opponent", "ratingDelta", "result", "displayName", "rating", "durationSec", "gsiPartition", "gsiSort", "handle"}},
	{name: "users", pk: "PK", sk: "SK", pks: []string{"'USER#u_001'", "'ORDER#o_0062'", "'EMAIL#victor.garcia@example.com'"},
		sks: []string{"'PROFILE'", "'ORDER#'", "'META'"}, attrs: []string{"Type", "status", "total", "userId", "orderedAt", "email", "name"}},
	{name: "customers", pk: "id", pks: []string{"'u_001'", "'u_002'", "'u_033'", "'c_0001'"},
		attrs: []string{"name", "tier", "city", "country", "balance", "active", "since", "status", "email", "favorite_sku", "lifetime_spend", "phone"}},
	{name: "orders", pk: "PK", sk: "SK", pks: []string{"'USER#u_001'", "'USER#u_005'", "'USER#u_024'"}, sks: []string{"'ORDER#2026-0'", "'ORDER#'"},
		indexes: [][3]string{{"ByStatus", "status", "ordered_at"}},
		attrs:   []string{"currency", "customer_id", "order_id", "ordered_at", "quantity", "shipping", "sku", "total", "unit_price", "status"}},
	{name: "products", pk: "sku", pks: []string{"'SKU-1001'", "'SKU-1031'", "'SKU-1032'"}, indexes: [][3]string{{"ByCategory", "category", "price"}},
		attrs: []string{"name", "price", "rating", "stock", "tags", "tags[1]", "dimensions.heightCm", "dimensions", "category"}},
	{name: "metrics", pk: "device", sk: "ts", numeric: true, pks: []string{"10", "42", "11"}, sks: []string{"1777593600", "1777595400"},
		attrs: []string{"at", "battery", "humidity", "ok", "temp"}},
}

// gen turns bytes into choices; past their end, into choices drawn from a
// generator seeded with them (so a statement is never cut short, and the
// same bytes always make the same statement).
type gen struct {
	data []byte
	i    int
	rest *rand.Rand
	from []genSource // the FROM items in scope
	agg  bool        // the statement aggregates
}

type genSource struct {
	t     genTable
	alias string
}

func (g *gen) n(k int) int {
	if k <= 1 {
		return 0
	}
	if g.i >= len(g.data) {
		return g.rest.IntN(k)
	}
	b := g.data[g.i]
	g.i++
	return int(b) % k
}

func (g *gen) one(options ...string) string { return options[g.n(len(options))] }

func generateStatement(data []byte) string {
	h := fnv.New64a()
	h.Write(data)
	g := &gen{data: data, rest: rand.New(rand.NewPCG(h.Sum64(), uint64(len(data))))}
	return g.statement()
}

func (g *gen) statement() string {
	var sb strings.Builder
	switch g.n(10) {
	case 0:
		sb.WriteString("EXPLAIN ")
	case 1:
		sb.WriteString("EXPLAIN ANALYZE ")
	}
	t1 := genTables[g.n(len(genTables))]
	g.from = []genSource{{t: t1, alias: "a"}}
	from := g.tableRef(t1, "a")
	if g.n(4) == 0 {
		t2 := genTables[g.n(len(genTables))]
		g.from = append(g.from, genSource{t: t2, alias: "b"})
		kind := g.one("JOIN", "LEFT JOIN", "INNER JOIN", "JOIN")
		on := fmt.Sprintf("%s = %s", g.column(1, true), g.column(0, false))
		if g.n(3) == 0 {
			on += " AND " + g.cond(2)
		}
		from += fmt.Sprintf(" %s %s ON %s", kind, g.tableRef(t2, "b"), on)
	}
	g.agg = g.n(4) == 0
	sb.WriteString("SELECT ")
	if g.n(8) == 0 {
		sb.WriteString("DISTINCT ")
	}
	var group []string
	if g.agg {
		for range 1 + g.n(2) {
			group = append(group, g.column(g.n(len(g.from)), false))
		}
	}
	sb.WriteString(g.selectList(group))
	sb.WriteString(" FROM " + from)
	if g.n(5) != 0 {
		sb.WriteString(" WHERE " + g.keyCond(0))
		if g.n(2) == 0 {
			sb.WriteString(" AND " + g.cond(0))
		}
	}
	if g.agg {
		sb.WriteString(" GROUP BY " + strings.Join(group, ", "))
		if g.n(3) == 0 {
			sb.WriteString(" HAVING COUNT(*) " + g.one(">", ">=", "=", "<") + " " + fmt.Sprint(g.n(4)))
		}
	}
	if g.n(3) == 0 {
		var items []string
		for range 1 + g.n(2) {
			c := g.column(g.n(len(g.from)), g.n(2) == 0)
			if g.agg {
				c = g.aggregate()
				if g.n(2) == 0 {
					c = fmt.Sprint(1 + g.n(2))
				}
			}
			items = append(items, c+g.one("", " ASC", " DESC"))
		}
		sb.WriteString(" ORDER BY " + strings.Join(items, ", "))
	}
	if g.n(3) == 0 {
		fmt.Fprintf(&sb, " LIMIT %d", g.n(30))
		if g.n(3) == 0 {
			fmt.Fprintf(&sb, " OFFSET %d", g.n(10))
		}
	}
	if g.n(12) == 0 {
		sb.WriteString("; " + g.one("SHOW TABLES", "DESCRIBE "+t1.name, "SHOW INDEXES FROM "+t1.name))
	}
	return sb.String()
}

func (g *gen) tableRef(t genTable, alias string) string {
	name := t.name
	switch {
	case len(t.indexes) > 0 && g.n(8) == 0:
		name = fmt.Sprintf("`%s`.`%s`", t.name, t.indexes[g.n(len(t.indexes))][0])
	case g.n(12) == 0:
		name = fmt.Sprintf("%q", t.name)
	}
	ref := name + " " + g.one("", "AS ") + alias
	if len(t.indexes) > 0 && g.n(10) == 0 {
		ref += fmt.Sprintf(" %s INDEX (%s)", g.one("USE", "FORCE"), t.indexes[g.n(len(t.indexes))][0])
	}
	return ref
}

// column names an attribute of FROM item src (a key one when key is set).
func (g *gen) column(src int, key bool) string {
	s := g.from[min(src, len(g.from)-1)]
	var name string
	switch {
	case key && s.t.sk != "" && g.n(2) == 0:
		name = s.t.sk
	case key:
		name = s.t.pk
	default:
		all := append([]string{s.t.pk, s.t.sk}, s.t.attrs...)
		if s.t.sk == "" {
			all = append([]string{s.t.pk}, s.t.attrs...)
		}
		name = all[g.n(len(all))]
	}
	if len(g.from) > 1 || g.n(6) == 0 {
		return s.alias + "." + name
	}
	return name
}

func (g *gen) selectList(group []string) string {
	if g.agg {
		items := append([]string{}, group...)
		for range 1 + g.n(3) {
			items = append(items, g.aggregate()+g.alias())
		}
		return strings.Join(items, ", ")
	}
	if g.n(4) == 0 {
		return g.one("*", "a.*", "*, "+g.expr(0))
	}
	var items []string
	for range 1 + g.n(4) {
		items = append(items, g.expr(0)+g.alias())
	}
	return strings.Join(items, ", ")
}

func (g *gen) alias() string {
	if g.n(4) == 0 {
		return fmt.Sprintf(" AS %s", g.one("x", "y", "`n m`", "\"q\"", "status"))
	}
	return ""
}

func (g *gen) aggregate() string {
	arg := g.column(g.n(len(g.from)), false)
	switch g.n(8) {
	case 0, 1:
		return "COUNT(*)"
	case 2:
		return "COUNT(" + arg + ")"
	case 3:
		return "COUNT(DISTINCT " + arg + ")"
	case 4:
		return "SUM(" + arg + ")"
	case 5:
		return "AVG(" + arg + ")"
	case 6:
		return "MIN(" + g.expr(1) + ")"
	}
	return "MAX(" + arg + ")"
}

// expr is a value expression.
func (g *gen) expr(depth int) string {
	if depth > 2 {
		return g.column(g.n(len(g.from)), false)
	}
	c := func() string { return g.column(g.n(len(g.from)), false) }
	switch g.n(16) {
	case 0, 1, 2, 3, 4:
		return c()
	case 5:
		return g.literal()
	case 6:
		return fmt.Sprintf("%s %s %s", g.expr(depth+1), g.one("+", "-", "*", "/", "%", "DIV"), g.expr(depth+1))
	case 7:
		return fmt.Sprintf("%s(%s)", g.one("lower", "upper", "length", "char_length", "abs", "size", "attribute_type"), c())
	case 8:
		return fmt.Sprintf("substr(%s, %d, %d)", c(), g.n(5)-1, g.n(6))
	case 9:
		return fmt.Sprintf("concat(%s, %s)", g.expr(depth+1), g.literal())
	case 10:
		return fmt.Sprintf("%s(%s, %s)", g.one("coalesce", "ifnull", "nullif"), c(), g.literal())
	case 11:
		return fmt.Sprintf("if(%s, %s, %s)", g.cond(depth+1), g.expr(depth+1), g.expr(depth+1))
	case 12:
		return fmt.Sprintf("round(%s, %d)", c(), g.n(4)-1)
	case 13:
		return fmt.Sprintf("CAST(%s AS %s)", g.expr(depth+1), g.one("CHAR", "DECIMAL", "SIGNED", "DECIMAL(10, 2)"))
	case 14:
		return fmt.Sprintf("CASE WHEN %s THEN %s ELSE %s END", g.cond(depth+1), g.expr(depth+1), g.expr(depth+1))
	}
	return "item_size()"
}

// keyCond is a condition that often picks a keyed read.
func (g *gen) keyCond(depth int) string {
	s := g.from[0]
	t := s.t
	col := func(name string) string {
		if len(g.from) > 1 || g.n(5) == 0 {
			return s.alias + "." + name
		}
		return name
	}
	pkVal := func() string { return t.pks[g.n(len(t.pks))] }
	switch g.n(9) {
	case 0, 1:
		c := col(t.pk) + " = " + pkVal()
		if t.sk != "" && len(t.sks) > 0 && g.n(2) == 0 {
			c += " AND " + g.sortCond(col(t.sk), t)
		}
		return c
	case 2:
		var vals []string
		for range 1 + g.n(4) {
			vals = append(vals, pkVal())
		}
		return fmt.Sprintf("%s IN (%s)", col(t.pk), strings.Join(vals, ", "))
	case 3:
		return fmt.Sprintf("%s = %s OR %s = %s", col(t.pk), pkVal(), col(t.pk), pkVal())
	case 4:
		if len(t.indexes) > 0 {
			ix := t.indexes[g.n(len(t.indexes))]
			return fmt.Sprintf("%s = %s", col(ix[1]), g.literal())
		}
	case 5:
		return fmt.Sprintf("(%s = %s) OR (%s)", col(t.pk), pkVal(), g.cond(depth+1))
	}
	return g.cond(depth)
}

func (g *gen) sortCond(col string, t genTable) string {
	v := t.sks[g.n(len(t.sks))]
	switch g.n(5) {
	case 0:
		return fmt.Sprintf("begins_with(%s, %s)", col, v)
	case 1:
		return fmt.Sprintf("%s BETWEEN %s AND %s", col, v, t.sks[g.n(len(t.sks))])
	case 2:
		if !t.numeric {
			return fmt.Sprintf("%s LIKE '%s%%'", col, strings.Trim(v, "'"))
		}
	}
	return fmt.Sprintf("%s %s %s", col, g.one("=", "<", "<=", ">", ">=", "<>"), v)
}

// cond is any predicate.
func (g *gen) cond(depth int) string {
	if depth > 3 {
		return g.atom()
	}
	switch g.n(12) {
	case 0:
		return g.cond(depth+1) + " AND " + g.cond(depth+1)
	case 1:
		return g.cond(depth+1) + " OR " + g.cond(depth+1)
	case 2:
		return "NOT " + g.cond(depth+1)
	case 3:
		return "(" + g.cond(depth+1) + ")"
	case 4:
		return g.keyCond(depth + 1)
	}
	return g.atom()
}

func (g *gen) atom() string {
	c := g.column(g.n(len(g.from)), false)
	switch g.n(12) {
	case 0, 1, 2:
		return fmt.Sprintf("%s %s %s", c, g.one("=", "<>", "!=", "<", "<=", ">", ">="), g.literal())
	case 3:
		return fmt.Sprintf("%s %sBETWEEN %s AND %s", c, g.one("", "NOT "), g.literal(), g.literal())
	case 4:
		return fmt.Sprintf("%s %sLIKE %s", c, g.one("", "NOT "), g.one("'a%'", "'%e%'", "'_b'", "'%'", "'WS#%'", "'x\\%'", "''", "'%_%'"))
	case 5:
		return fmt.Sprintf("%s IS %sNULL", c, g.one("", "NOT "))
	case 6:
		var vals []string
		for range 1 + g.n(4) {
			vals = append(vals, g.literal())
		}
		return fmt.Sprintf("%s %sIN (%s)", c, g.one("", "NOT "), strings.Join(vals, ", "))
	case 7:
		return fmt.Sprintf("%s(%s)", g.one("attribute_exists", "attribute_not_exists"), c)
	case 8:
		return fmt.Sprintf("%s(%s, %s)", g.one("contains", "begins_with", "attribute_type"), c, g.literal())
	case 9:
		return fmt.Sprintf("size(%s) %s %d", c, g.one(">", "=", "<"), g.n(5))
	case 10:
		return fmt.Sprintf("%s %s %s", c, g.one("=", "<", ">"), g.column(g.n(len(g.from)), false))
	}
	return fmt.Sprintf("%s %s %s", g.expr(1), g.one("=", ">", "<="), g.expr(1))
}

func (g *gen) literal() string {
	switch g.n(16) {
	case 0:
		return "NULL"
	case 1:
		return g.one("TRUE", "FALSE")
	case 2:
		return "''"
	case 3:
		return g.one("0", "-1", "1.5", "-0.000", "1e3", "12345678901234567890123456789012345678", "0.1", "99999999999999999999999999999999999999e100")
	case 4:
		return fmt.Sprint(g.n(200) - 20)
	case 5:
		return g.one("'active'", "'gold'", "'delivered'", "'toys'", "'STATUS#REVIEW'", "'PLAN#team'", "'review'", "'Alice Tanaka'")
	case 6:
		return g.one("'a''b'", "'é'", "'\\n'", "'%'", "'2026-01-01'", "'ORDER#2026'", "'SKU-10'")
	case 7:
		t := g.from[g.n(len(g.from))].t
		return t.pks[g.n(len(t.pks))]
	case 8:
		return g.one("\"status\"", "`title`", "'SEASON#2026-Q2'", "'harbor'", "'win'")
	}
	return fmt.Sprint(g.n(50))
}

package offline

import (
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
)

// The demo's promises, as doc.go states them.
var demoTables = []LoadedTable{
	{"app", 484, DemoSource}, {"leaderboard", 1696, DemoSource}, {"users", 446, DemoSource},
	{"customers", 40, DemoSource}, {"orders", 183, DemoSource}, {"products", 40, DemoSource},
	{"metrics", 240, DemoSource},
}

func loadDemo(t *testing.T) *memdb.DB {
	t.Helper()
	db := newDB()
	got, err := LoadDemo(ctx, db)
	if err != nil {
		t.Fatalf("LoadDemo: %v", err)
	}
	if !reflect.DeepEqual(got, demoTables) {
		t.Fatalf("LoadDemo tables\n got %v\nwant %v", got, demoTables)
	}
	return db
}

func TestLoadDemoTables(t *testing.T) {
	db := loadDemo(t)
	names := tableNames(t, db)
	want := []string{"app", "customers", "leaderboard", "metrics", "orders", "products", "users"}
	if !reflect.DeepEqual(names, want) {
		t.Errorf("ListTables %v, want %v", names, want)
	}
	for _, tt := range demoTables {
		if n := itemCount(t, db, tt.Name); n != int64(tt.Items) {
			t.Errorf("%s: DescribeTable ItemCount %d, want %d", tt.Name, n, tt.Items)
		}
	}
	if !db.IsReadOnly() {
		t.Error("the demo DB is writable")
	}
	// Loading it again into the same DB is refused (the names are taken).
	if _, err := LoadDemo(ctx, db); err == nil || !strings.Contains(err.Error(), "table app already exists") {
		t.Errorf("second LoadDemo: %v", err)
	}
}

// sks lists an attribute of the items.
func attrList(items []map[string]types.AttributeValue, name string) []string {
	out := make([]string, len(items))
	for i, it := range items {
		out[i] = sOf(it, name)
	}
	return out
}

func TestDemoApp(t *testing.T) {
	db := loadDemo(t)
	// One Query returns the workspace's documents, members and record, in
	// sort-key order (DOC# < MEMBER# < META), reading only that partition.
	before := db.ItemsRead()
	acme := query(t, db, eq("app", "", "PK", S("WS#acme")))
	if read := db.ItemsRead() - before; read != 17 || len(acme) != 17 {
		t.Fatalf("PK = WS#acme: %d items, %d read; want 17", len(acme), read)
	}
	sks := attrList(acme, "SK")
	if sks[0] != "DOC#0001" || sks[11] != "DOC#0012" || sks[12] != "MEMBER#u_001" || sks[16] != "META" {
		t.Errorf("WS#acme sort keys %v", sks)
	}
	for _, it := range acme {
		if sOf(it, "Type") == "" {
			t.Errorf("item %s has no Type", sOf(it, "SK"))
		}
	}
	// Overloaded sparse GSI1: review documents by date, workspaces by plan.
	review := query(t, db, eq("app", "GSI1", "GSI1PK", S("STATUS#REVIEW")))
	if len(review) != 45 {
		t.Fatalf("STATUS#REVIEW: %d documents, want 45", len(review))
	}
	dates := attrList(review, "GSI1SK")
	if !sort.StringsAreSorted(dates) {
		t.Errorf("STATUS#REVIEW is not in date order: %v", dates)
	}
	for _, it := range review {
		if sOf(it, "status") != "review" || sOf(it, "Type") != "Document" {
			t.Errorf("in STATUS#REVIEW: %v", it)
		}
	}
	team := query(t, db, eq("app", "GSI1", "GSI1PK", S("PLAN#team")))
	if got := attrList(team, "GSI1SK"); !reflect.DeepEqual(got, []string{"WS#acme", "WS#initech", "WS#stark", "WS#wonka"}) {
		t.Errorf("PLAN#team: %v", got)
	}
	// A share link is its own item collection: DOC#<id> / META.
	link, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("app"),
		Key: map[string]types.AttributeValue{"PK": S("DOC#0002"), "SK": S("META")}})
	if err != nil || sOf(link.Item, "Type") != "ShareLink" || sOf(link.Item, "workspace") != "WS#acme" {
		t.Errorf("share link DOC#0002: %v %v", link.Item, err)
	}
	// The membership edge is written both ways.
	if m := query(t, db, eq("app", "", "PK", S("USER#u_001"))); len(m) != 1 || sOf(m[0], "SK") != "WS#acme" {
		t.Errorf("USER#u_001 memberships: %v", m)
	}
}

func TestDemoLeaderboard(t *testing.T) {
	db := loadDemo(t)
	in := eq("leaderboard", "season", "gsiPartition", S("SEASON#2026-Q2"))
	in.ScanIndexForward = aws.Bool(false)
	in.Limit = aws.Int32(10)
	out, err := db.Query(ctx, in)
	if err != nil || len(out.Items) != 10 {
		t.Fatalf("season top 10: %v, %v", out, err)
	}
	prev := "RATING#99999"
	for _, it := range out.Items {
		g := sOf(it, "gsiSort")
		if len(g) != len("RATING#00000") || g > prev || "RATING#0"+sOf(it, "rating") != g {
			t.Errorf("season order: %s after %s (rating %s)", g, prev, sOf(it, "rating"))
		}
		prev = g
	}
	if n := len(query(t, db, eq("leaderboard", "season", "gsiPartition", S("SEASON#2026-Q2")))); n != 160 {
		t.Errorf("SEASON#2026-Q2 has %d players, want 160", n)
	}
	// The handle index is KEYS_ONLY: it resolves a handle to the player id.
	h := query(t, db, eq("leaderboard", "handle", "handle", S("swift_fox")))
	if len(h) != 1 || sOf(h[0], "partitionId") != "PLAYER#p0001" || len(h[0]) != 3 {
		t.Errorf("handle swift_fox: %v", h)
	}
	p7 := query(t, db, eq("leaderboard", "", "partitionId", S("PLAYER#p0007")))
	last := p7[len(p7)-1]
	if sOf(last, "rangeId") != "PROFILE" || sOf(last, "lifetimeXp") != "31415926535897932384626433832795028841" {
		t.Errorf("PLAYER#p0007 profile: %v", last)
	}
	for _, m := range p7[:len(p7)-1] {
		if !strings.HasPrefix(sOf(m, "rangeId"), "MATCH#2026-") {
			t.Errorf("match sort key %s", sOf(m, "rangeId"))
		}
	}
}

func TestDemoShop(t *testing.T) {
	db := loadDemo(t)
	u1 := query(t, db, eq("users", "", "PK", S("USER#u_001")))
	if len(u1) != 7 || sOf(u1[6], "SK") != "PROFILE" || !strings.HasPrefix(sOf(u1[0], "SK"), "ORDER#2026-") {
		t.Fatalf("users USER#u_001: %v", attrList(u1, "SK"))
	}
	email, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("users"),
		Key: map[string]types.AttributeValue{"PK": S("EMAIL#alice.tanaka@example.com"), "SK": S("EMAIL#alice.tanaka@example.com")}})
	if err != nil || sOf(email.Item, "userId") != "u_001" {
		t.Errorf("e-mail uniqueness item: %v %v", email.Item, err)
	}
	// The join the demo is for: orders of USER#u_001 with their customer.
	orders := query(t, db, eq("orders", "", "PK", S("USER#u_001")))
	if len(orders) != 6 {
		t.Fatalf("orders USER#u_001: %d", len(orders))
	}
	for _, o := range orders {
		if sOf(o, "customer_id") != "u_001" || !strings.Contains(sOf(o, "total"), ".") && sOf(o, "total") == "" {
			t.Errorf("order %v", o)
		}
	}
	c, err := db.GetItem(ctx, &dynamodb.GetItemInput{TableName: aws.String("customers"),
		Key: map[string]types.AttributeValue{"id": S("u_001")}})
	if err != nil || sOf(c.Item, "name") != "Alice Tanaka" {
		t.Errorf("customer u_001: %v %v", c.Item, err)
	}
	books := query(t, db, eq("products", "ByCategory", "category", S("books")))
	if len(books) != 8 {
		t.Fatalf("books: %d", len(books))
	}
	shipped := query(t, db, eq("orders", "ByStatus", "status", S("shipped")))
	if len(shipped) != 27 || !sort.StringsAreSorted(attrList(shipped, "ordered_at")) {
		t.Errorf("ByStatus shipped: %d, %v", len(shipped), attrList(shipped, "ordered_at"))
	}
}

func TestDemoMetrics(t *testing.T) {
	db := loadDemo(t)
	d10 := query(t, db, eq("metrics", "", "device", N("10")))
	if len(d10) != 48 || sOf(d10[0], "ts") != "1777593600" || sOf(d10[47], "ts") != "1777678200" {
		t.Fatalf("device 10: %d readings, ts %s..%s", len(d10), sOf(d10[0], "ts"), sOf(d10[len(d10)-1], "ts"))
	}
}

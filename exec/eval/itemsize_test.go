package eval

import (
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/planner/value"
)

// TestItemSizeKnownItems checks whole items whose sizes are published.
func TestItemSizeKnownItems(t *testing.T) {
	// Book 101 of the ProductCatalog table in the DynamoDB Developer Guide's
	// sample data; 137 bytes is the size ddb-calc (LeeroyHannigan/
	// DynamoDB-ItemSizeCalculator) documents for it.
	book := mapv(
		"Id", num("101"),
		"Title", str("Book 101 Title"),
		"ISBN", str("111-1111111111"),
		"Authors", list(str("Author1")),
		"Price", num("2"),
		"Dimensions", str("8.5 x 11.0 x 0.5"),
		"PageCount", num("500"),
		"InPublication", boolv(true),
		"ProductCategory", str("Book"),
	)
	if got := ItemSize(book); got != 137 {
		t.Errorf("ProductCatalog book 101: ItemSize = %d; want 137", got)
	}
	// The sample item of Zac Charles's calculator, by hand:
	// id 2+8, fullName 8+11, isAdmin 7+1, favouriteNumber 15+3 (-1E-130:
	// one base-100 digit, the exponent byte, the negative byte), foods 5+5+6.
	zac := mapv(
		"id", str("f0ba8d6c"),
		"fullName", str("Zac Charles"),
		"isAdmin", boolv(true),
		"favouriteNumber", num("-1E-130"),
		"foods", set(value.StringSet, str("pizza"), str("burger")),
	)
	if got := ItemSize(zac); got != 71 {
		t.Errorf("calculator sample: ItemSize = %d; want 71", got)
	}
}

// TestItemSizeRules checks each documented rule on one-attribute items.
func TestItemSizeRules(t *testing.T) {
	tests := []struct {
		name string
		item value.Value
		want int64
	}{
		{"S: name bytes + UTF-8 bytes", mapv("a", str("abc")), 1 + 3},
		{"S: multi-byte name and value", mapv("café", str("日本")), 5 + 6},
		{"S: empty", mapv("a", str("")), 1},
		{"B: raw bytes, not base64", mapv("b", bin(1, 2, 3)), 1 + 3},
		{"BOOL: 1 byte", mapv("flag", boolv(false)), 4 + 1},
		{"NULL: 1 byte", mapv("n", null()), 1 + 1},
		{"N: name + number", mapv("n", num("123")), 1 + 3},
		{"empty L: 3 bytes", mapv("l", list()), 1 + 3},
		{"empty M: 3 bytes", mapv("m", mapv()), 1 + 3},
		{"L: 3 + 1 per element", mapv("l", list(str("a"), num("1"))), 1 + 3 + (1 + 1) + (1 + 2)},
		{"M: 3 + 1 per member + member names", mapv("m", mapv("k", str("v"))), 1 + 3 + (1 + 1 + 1)},
		{"nested documents", mapv("m", mapv("l", list(mapv()))), 1 + 3 + (1 + 1 + (3 + (1 + 3)))},
		{"SS: sum of members", mapv("s", set(value.StringSet, str("ab"), str("c"))), 1 + 3},
		{"NS: sum of member numbers", mapv("s", set(value.NumberSet, num("1"), num("100"))), 1 + 2 + 2},
		{"BS: sum of members", mapv("s", set(value.BinarySet, bin(1), bin(2, 3))), 1 + 3},
		{"several attributes", mapv("a", str("x"), "bb", num("0")), (1 + 1) + (2 + 1)},
		{"empty item", mapv(), 0},
		{"not an item", str("abc"), 0},
	}
	for _, tc := range tests {
		if got := ItemSize(tc.item); got != tc.want {
			t.Errorf("%s: ItemSize = %d; want %d", tc.name, got, tc.want)
		}
	}
}

func TestNumberSize(t *testing.T) {
	tests := []struct {
		n    string
		want int64
	}{
		{"0", 1},
		{"1", 2}, {"9", 2}, {"10", 2}, {"99", 2}, {"100", 2},
		{"123", 3}, {"1234", 3}, {"12345", 4},
		{"1000000", 2}, {"1200", 2}, {"1010", 3}, {"10100", 3},
		{"0.5", 2}, {"0.05", 2}, {"0.0012", 2}, {"0.123", 3},
		{"1.5", 3}, {"12.5", 3}, {"100.5", 4}, {"100.05", 4},
		{"-1", 3}, {"-12.5", 4}, {"-1E-130", 3}, {"1E-130", 2}, {"1E+125", 2},
		{nines38, 20},
		{"9." + strings.Repeat("9", 37), 21},
		{"-" + nines38, 21},
		{"-9." + strings.Repeat("9", 37), 21}, // capped
	}
	for _, tc := range tests {
		if got := numberSize(num(tc.n).Text()); got != tc.want {
			t.Errorf("numberSize(%s) = %d; want %d", tc.n, got, tc.want)
		}
	}
	if got := numberSize("1.50"); got != 3 {
		t.Errorf("non-canonical 1.50: %d", got)
	}
	if got := numberSize("x"); got != 0 {
		t.Errorf("invalid text: %d", got)
	}
}

// TestNumberSizeMatchesDocumentedFormula: for positive integers without
// trailing zeros, whose digits start on a base-100 boundary, the exact rule
// is the documented (1 byte per two significant digits) + 1 byte.
func TestNumberSizeMatchesDocumentedFormula(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 10000; i++ {
		n := r.Uint64()
		for n%10 == 0 {
			n /= 10
		}
		s := strconv.FormatUint(n, 10)
		want := int64((len(s)+1)/2 + 1)
		if got := numberSize(s); got != want {
			t.Fatalf("numberSize(%s) = %d; documented formula gives %d", s, got, want)
		}
	}
}

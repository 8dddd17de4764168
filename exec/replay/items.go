package replay

import (
	"math/rand/v2"
	"strconv"
	"strings"
)

// Statuses are the values of the status attribute (GROUP BY status).
var Statuses = []string{"PENDING", "PAID", "SHIPPED", "DELIVERED", "CANCELLED", "RETURNED"}

var (
	cities   = []string{"Berlin", "Lyon", "Osaka", "Porto", "Zürich", "Austin", "Nagoya", "Kraków"}
	streets  = []string{"Main St", "Hauptstraße", "Rue de la Paix", "Elm Row", "Sakura-dori", "Harbour Rd"}
	tagWords = []string{"gift", "express", "fragile", "bulk", "promo", "b2b", "repeat", "eco"}
)

// attr is one attribute of a generated item: its JSON member (name and
// typed value, ready to write) and its DynamoDB item size.
type attr struct {
	json []byte
	size int
}

// itemGen writes the deterministic item i of a table: single-table shapes
// (orders, and every tenth item a return), ~480 bytes of wire JSON with S,
// N, BOOL, L and M attributes in an order that varies from item to item.
type itemGen struct {
	partitionSize int
	keys          int // > 0: the narrow shape (narrow.go)
	attrs         []attr
	buf           []byte
}

// pk and sk of item i.
func (g *itemGen) pk(i int) string { return "TENANT#" + pad(i/g.partitionSize, 5) }
func sk(i int) string              { return "ORDER#" + pad(i, 9) }

func pad(n, width int) string {
	s := strconv.Itoa(n)
	for len(s) < width {
		s = "0" + s
	}
	return s
}

// item appends item i's JSON object to dst and returns its DynamoDB size.
func (g *itemGen) item(dst []byte, i int) ([]byte, int) {
	if g.keys > 0 {
		return g.narrowItem(dst, i)
	}
	r := rand.New(rand.NewPCG(uint64(i), 0x5eed))
	g.attrs = g.attrs[:0]
	g.buf = g.buf[:0]
	ret := i%10 == 9
	g.s("pk", g.pk(i))
	g.s("sk", sk(i))
	if ret {
		g.s("type", "RETURN")
		g.s("reason", tagWords[r.IntN(len(tagWords))]+" damaged in transit")
	} else {
		g.s("type", "ORDER")
		g.s("currency", []string{"EUR", "USD", "JPY"}[r.IntN(3)])
		g.b("express", r.IntN(3) == 0)
		g.l("tags", r)
	}
	g.s("status", Statuses[r.IntN(len(Statuses))])
	if i%20 != 7 { // x is missing from 5 % of the items
		g.n("x", strconv.Itoa(r.IntN(10_000)))
	}
	cents := r.IntN(1_000_000)
	g.n("amount", decimal(cents, 2))
	g.n("qty", strconv.Itoa(1+r.IntN(9)))
	cust := r.IntN(50_000)
	g.s("customer", "CUSTOMER#"+pad(cust, 6))
	g.s("email", "user"+strconv.Itoa(cust)+"@example.com")
	g.s("created", "2025-"+pad(1+r.IntN(12), 2)+"-"+pad(1+r.IntN(28), 2)+"T"+pad(r.IntN(24), 2)+":"+pad(r.IntN(60), 2)+":00Z")
	g.s("gsi1pk", "CUSTOMER#"+pad(cust, 6))
	g.m("address", r)

	// Attribute order varies per item, as DynamoDB's does.
	r.Shuffle(len(g.attrs), func(a, b int) { g.attrs[a], g.attrs[b] = g.attrs[b], g.attrs[a] })
	dst = append(dst, '{')
	size := 0
	for k, a := range g.attrs {
		if k > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, a.json...)
		size += a.size
	}
	return append(dst, '}'), size
}

// The attribute writers keep their JSON in g.buf; attrs slice into it.
func (g *itemGen) add(start int, size int) {
	g.attrs = append(g.attrs, attr{json: g.buf[start:len(g.buf):len(g.buf)], size: size})
}

func (g *itemGen) member(name, typ string) int {
	start := len(g.buf)
	g.buf = append(g.buf, '"')
	g.buf = append(g.buf, name...)
	g.buf = append(g.buf, `":{"`...)
	g.buf = append(g.buf, typ...)
	g.buf = append(g.buf, `":`...)
	return start
}

func (g *itemGen) s(name, v string) {
	start := g.member(name, "S")
	g.buf = strconv.AppendQuote(g.buf, v)
	g.buf = append(g.buf, '}')
	g.add(start, len(name)+len(v))
}

func (g *itemGen) n(name, v string) {
	start := g.member(name, "N")
	g.buf = append(append(append(g.buf, '"'), v...), `"}`...)
	g.add(start, len(name)+numberSize(v))
}

func (g *itemGen) b(name string, v bool) {
	start := g.member(name, "BOOL")
	g.buf = strconv.AppendBool(g.buf, v)
	g.buf = append(g.buf, '}')
	g.add(start, len(name)+1)
}

func (g *itemGen) l(name string, r *rand.Rand) {
	start := g.member(name, "L")
	g.buf = append(g.buf, '[')
	size := len(name) + 3
	for k, n := 0, 1+r.IntN(3); k < n; k++ {
		if k > 0 {
			g.buf = append(g.buf, ',')
		}
		w := tagWords[r.IntN(len(tagWords))]
		g.buf = append(g.buf, `{"S":"`...)
		g.buf = append(g.buf, w...)
		g.buf = append(g.buf, `"}`...)
		size += 1 + len(w)
	}
	g.buf = append(g.buf, "]}"...)
	g.add(start, size)
}

func (g *itemGen) m(name string, r *rand.Rand) {
	start := g.member(name, "M")
	street := strconv.Itoa(1+r.IntN(200)) + " " + streets[r.IntN(len(streets))]
	city := cities[r.IntN(len(cities))]
	zip := pad(r.IntN(100_000), 5)
	g.buf = append(g.buf, `{"street":{"S":`...)
	g.buf = strconv.AppendQuote(g.buf, street)
	g.buf = append(g.buf, `},"city":{"S":`...)
	g.buf = strconv.AppendQuote(g.buf, city)
	g.buf = append(g.buf, `},"zip":{"S":"`...)
	g.buf = append(g.buf, zip...)
	g.buf = append(g.buf, `"}}}`...)
	g.add(start, len(name)+3+(6+1+len(street))+(4+1+len(city))+(3+1+len(zip)))
}

// numberSize approximates DynamoDB's size of a number: about one byte per
// two significant digits, plus one.
func numberSize(v string) int {
	digits := 0
	for i := 0; i < len(v); i++ {
		if v[i] >= '0' && v[i] <= '9' {
			digits++
		}
	}
	return (digits+1)/2 + 1
}

// decimal renders n / 10^scale canonically (no trailing fraction zeros), as
// DynamoDB returns numbers.
func decimal(n, scale int) string {
	s := pad(n, scale+1)
	whole, frac := s[:len(s)-scale], strings.TrimRight(s[len(s)-scale:], "0")
	if frac == "" {
		return whole
	}
	return whole + "." + frac
}

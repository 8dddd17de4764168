package wire

import (
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"unicode/utf8"
)

// pageGen writes random Query/Scan response bodies: every DynamoDB type,
// attribute order varying per item, edge values, and escapes and
// whitespace chosen at random. Numbers and strings are written in forms the
// SDK path reads to the same values (non-canonical numbers, escaped
// characters), so the expected result is whatever the SDK path makes of the
// same bytes.
type pageGen struct {
	r *rand.Rand
	// odd, when set, sometimes writes well-formed shapes the fast decoder
	// leaves to the SDK (NULL-valued members, repeated attributes, ...).
	odd bool
}

func newPageGen(seed uint64) *pageGen {
	return &pageGen{r: rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))}
}

var genNames = []string{"pk", "sk", "status", "x", "amount", "name", "tags", "doc", "flag", "bin",
	"ss", "ns", "bs", "nul", "mix", "num", "é名", "a\"q", "with space", "z", ""}

// body writes a page of n items.
func (g *pageGen) body(n int) []byte {
	var b strings.Builder
	members := []func(){
		func() {
			b.WriteString(`"Items":`)
			g.space(&b)
			b.WriteByte('[')
			for i := 0; i < n; i++ {
				if i > 0 {
					b.WriteByte(',')
				}
				g.space(&b)
				g.item(&b, i)
			}
			g.space(&b)
			b.WriteByte(']')
		},
		func() { fmt.Fprintf(&b, `"Count":%d`, n) },
		func() { fmt.Fprintf(&b, `"ScannedCount":%d`, n+g.r.IntN(3)) },
		func() {
			b.WriteString(`"ConsumedCapacity":{"TableName":"t","CapacityUnits":12.5,"Table":{"CapacityUnits":12.5}}`)
		},
	}
	g.r.Shuffle(len(members), func(i, j int) { members[i], members[j] = members[j], members[i] })
	b.WriteByte('{')
	for i, m := range members {
		if i > 0 {
			b.WriteByte(',')
		}
		g.space(&b)
		m()
	}
	g.space(&b)
	b.WriteByte('}')
	return []byte(b.String())
}

func (g *pageGen) space(b *strings.Builder) {
	if g.r.IntN(6) == 0 {
		b.WriteString([]string{" ", "\n", "\t ", "\r\n  "}[g.r.IntN(4)])
	}
}

func (g *pageGen) item(b *strings.Builder, i int) {
	names := append([]string(nil), genNames...)
	g.r.Shuffle(len(names), func(i, j int) { names[i], names[j] = names[j], names[i] })
	b.WriteByte('{')
	first := true
	for _, name := range names {
		if name != "pk" && name != "sk" && g.r.IntN(3) == 0 {
			continue // missing in this item
		}
		if !first {
			b.WriteByte(',')
		}
		first = false
		g.space(b)
		g.str(b, name)
		b.WriteByte(':')
		g.space(b)
		g.attr(b, name, i, 0)
		if g.odd && g.r.IntN(400) == 0 {
			b.WriteByte(',')
			g.str(b, name) // the same attribute twice
			b.WriteString(`:{"S":"again"}`)
		}
	}
	b.WriteByte('}')
}

// attr writes a value for the named attribute; most attributes keep one
// type, "mix" and "" change type from item to item.
func (g *pageGen) attr(b *strings.Builder, name string, i, depth int) {
	if g.odd && g.r.IntN(300) == 0 {
		b.WriteString([]string{`{"S":null,"N":"1"}`, `{}`, `{"X":"1","S":"a"}`, `null`, `{"N":1}`,
			`{"S":"a","N":"1"}`, `{"N":"1e999"}`, `{"B":"!!"}`, `{"\u0053":"esc"}`, `{"NULL":false}`,
			`{"L":[null]}`, `{"M":{"a":null}}`, `{"SS":["a",null]}`, `{"M":{"k":{"S":"1"},"k":{"N":"2"}}}`}[g.r.IntN(14)])
		return
	}
	switch name {
	case "pk":
		b.WriteString(`{"S":`)
		g.str(b, fmt.Sprintf("TENANT#%d", i%7))
		b.WriteByte('}')
	case "sk":
		b.WriteString(`{"S":`)
		g.str(b, fmt.Sprintf("ORDER#%08d", i))
		b.WriteByte('}')
	case "status", "name", "with space":
		b.WriteString(`{"S":`)
		g.strText(b, g.text())
		b.WriteByte('}')
	case "x", "amount", "é名":
		b.WriteString(`{"N":`)
		g.numText(b, g.number(name == "x"))
		b.WriteByte('}')
	case "num":
		b.WriteString(`{"N":`)
		g.numText(b, g.number(g.r.IntN(10) > 0))
		b.WriteByte('}')
	case "flag":
		fmt.Fprintf(b, `{"BOOL":%t}`, g.r.IntN(2) == 0)
	case "bin":
		b.WriteString(`{"B":`)
		g.str(b, base64.StdEncoding.EncodeToString(g.bytes()))
		b.WriteByte('}')
	case "nul":
		b.WriteString(`{"NULL":true}`)
	case "ss", "ns", "bs":
		g.set(b, name)
	case "tags":
		g.list(b, depth)
	case "doc":
		g.doc(b, depth)
	default: // "mix", "", `a"q`, "z": any type
		g.any(b, depth)
	}
}

func (g *pageGen) any(b *strings.Builder, depth int) {
	switch g.r.IntN(10) {
	case 0:
		b.WriteString(`{"S":`)
		g.strText(b, g.text())
		b.WriteByte('}')
	case 1:
		b.WriteString(`{"N":`)
		g.numText(b, g.number(g.r.IntN(2) == 0))
		b.WriteByte('}')
	case 2:
		fmt.Fprintf(b, `{"BOOL":%t}`, g.r.IntN(2) == 0)
	case 3:
		b.WriteString(`{"B":`)
		g.str(b, base64.StdEncoding.EncodeToString(g.bytes()))
		b.WriteByte('}')
	case 4:
		b.WriteString(`{"NULL":true}`)
	case 5:
		g.list(b, depth)
	case 6:
		g.doc(b, depth)
	default:
		g.set(b, []string{"ss", "ns", "bs"}[g.r.IntN(3)])
	}
}

func (g *pageGen) list(b *strings.Builder, depth int) {
	b.WriteString(`{"L":[`)
	n := g.r.IntN(4)
	if depth > 6 {
		n = 0
	}
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		g.space(b)
		g.any(b, depth+1)
	}
	b.WriteString(`]}`)
}

func (g *pageGen) doc(b *strings.Builder, depth int) {
	b.WriteString(`{"M":{`)
	n := g.r.IntN(5)
	if depth > 6 {
		n = 0
	}
	keys := map[string]bool{}
	for i := 0; i < n; i++ {
		k := []string{"a", "b", "city", "zip", "Z", "é", "", "n\"k", "k\\"}[g.r.IntN(9)]
		if keys[k] {
			continue
		}
		keys[k] = true
		if len(keys) > 1 {
			b.WriteByte(',')
		}
		g.str(b, k)
		b.WriteByte(':')
		g.any(b, depth+1)
	}
	b.WriteString(`}}`)
}

func (g *pageGen) set(b *strings.Builder, kind string) {
	n := 1 + g.r.IntN(4)
	fmt.Fprintf(b, `{"%s":[`, strings.ToUpper(kind))
	for i := 0; i < n; i++ {
		if i > 0 {
			b.WriteByte(',')
		}
		switch kind {
		case "ss":
			g.strText(b, g.text())
		case "ns":
			g.numText(b, g.number(g.r.IntN(2) == 0))
		default:
			g.str(b, base64.StdEncoding.EncodeToString(g.bytes()))
		}
	}
	b.WriteString(`]}`)
}

// text returns a random string, often with characters that need escapes.
func (g *pageGen) text() string {
	pool := []string{"", "a", "shipped", "PENDING", "é", "日本語", "😀", "\"", "\\", "/", "\n", "\t", "\x01", "\x1f",
		"\u2028", "ÿ", "\x7f", "A B", "#", "\ufffd", "\xff", "\xc3"}
	var s strings.Builder
	for n := g.r.IntN(6); n > 0; n-- {
		s.WriteString(pool[g.r.IntN(len(pool))])
	}
	return s.String()
}

// str writes s as a JSON string, escaping characters at random (control
// characters, quotes and backslashes always), sometimes as \u escapes and
// surrogate pairs, and sometimes adding escape-only oddities (lone
// surrogates, which decode to U+FFFD).
func (g *pageGen) str(b *strings.Builder, s string) { g.quote(b, s, false) }

// strText is str for S values and SS members, which may also get unpaired
// surrogate escapes.
func (g *pageGen) strText(b *strings.Builder, s string) { g.quote(b, s, true) }

func (g *pageGen) quote(b *strings.Builder, s string, lone bool) {
	b.WriteByte('"')
	escapeAll := g.r.IntN(8) == 0
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteByte(s[i]) // raw invalid UTF-8
			i++
			continue
		}
		i += size
		esc := escapeAll || g.r.IntN(12) == 0
		switch {
		case r == '"' || r == '\\':
			if g.r.IntN(3) == 0 {
				fmt.Fprintf(b, `\u%04x`, r)
			} else {
				b.WriteByte('\\')
				b.WriteRune(r)
			}
		case r < 0x20:
			switch {
			case r == '\n' && g.r.IntN(2) == 0:
				b.WriteString(`\n`)
			case r == '\t' && g.r.IntN(2) == 0:
				b.WriteString(`\t`)
			default:
				fmt.Fprintf(b, `\u%04X`, r)
			}
		case r == '/' && esc:
			b.WriteString(`\/`)
		case esc && r >= 0x10000:
			r1, r2 := surrogates(r)
			fmt.Fprintf(b, `\u%04x\u%04X`, r1, r2)
		case esc:
			fmt.Fprintf(b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	if lone && escapeAll && g.r.IntN(4) == 0 {
		b.WriteString(`\ud800x\udc00`) // unpaired surrogates: two U+FFFD
	}
	b.WriteByte('"')
}

func surrogates(r rune) (rune, rune) {
	r -= 0x10000
	return 0xd800 + (r>>10)&0x3ff, 0xdc00 + r&0x3ff
}

// number returns canonical number text: edge values and random ones.
func (g *pageGen) number(integral bool) string {
	edges := []string{"0", "1", "-1", "9223372036854775807", "-9223372036854775808", "9223372036854775808",
		"-9223372036854775809", "12345678901234567890123456789012345678", "-99999999999999999999999999999999999999",
		"1" + strings.Repeat("0", 125), "-" + "9" + strings.Repeat("0", 125)}
	fracs := []string{"0.5", "-0.5", "3.14159", "0." + strings.Repeat("0", 129) + "1", "1234567890123456789.0123456789012345678",
		"-0.00000000000000000000000000000000000001", "99999999999999999999999999999999999.999"}
	switch {
	case integral && g.r.IntN(4) == 0:
		return edges[g.r.IntN(len(edges))]
	case integral:
		return strconv.FormatInt(g.r.Int64N(2_000_000)-1_000_000, 10)
	case g.r.IntN(3) == 0:
		return fracs[g.r.IntN(len(fracs))]
	}
	return strconv.FormatInt(g.r.Int64N(100000)-50000, 10) + "." + strconv.Itoa(1+g.r.IntN(999))
}

// numText writes a number as a JSON string, sometimes in a non-canonical
// but equal form (exponent, extra zeros, a plus sign) that the SDK path
// canonicalises.
func (g *pageGen) numText(b *strings.Builder, canon string) {
	text := canon
	if g.r.IntN(8) == 0 {
		switch g.r.IntN(4) {
		case 0:
			if !strings.Contains(text, ".") {
				text += ".000"
			} else {
				text += "00"
			}
		case 1:
			text = text + "e0"
		case 2:
			if !strings.HasPrefix(text, "-") {
				text = "+" + text
			}
		case 3:
			text = "0" + strings.TrimPrefix(text, "-")
			if strings.HasPrefix(canon, "-") {
				text = "-" + text
			}
		}
	}
	g.str(b, text)
}

func (g *pageGen) bytes() []byte {
	n := g.r.IntN(6)
	out := make([]byte, n)
	for i := range out {
		out[i] = byte(g.r.IntN(256))
	}
	return out
}

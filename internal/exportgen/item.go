package exportgen

import (
	"strconv"
	"time"
)

// Statuses are the five values of status, in the order Totals lists them.
var Statuses = []string{"placed", "paid", "shipped", "delivered", "cancelled"}

var (
	currencies = []string{"USD", "EUR", "JPY"}
	tagWords   = []string{"gift", "express", "fragile", "bulk", "promo", "first-order", "b2b", "returning"}
	cities     = []struct{ city, country string }{
		{"Tokyo", "JP"}, {"Osaka", "JP"}, {"Berlin", "DE"}, {"Paris", "FR"}, {"Seattle", "US"},
		{"Austin", "US"}, {"London", "GB"}, {"São Paulo", "BR"}, {"Toronto", "CA"}, {"Sydney", "AU"},
	}
	notes = []string{
		"leave at the door", "call before delivery", "gift wrap, no invoice in the box",
		"deliver after 6 pm", "fragile: \"glass\" inside", "back door\\side entrance",
	}
	// epoch is the first possible created time; created spans two years.
	epoch = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).Unix()
)

const createdSpan = 2 * 365 * 24 * 3600

// order is what the totals need of one generated item.
type order struct {
	status int   // index in Statuses
	cents  int64 // total × 100
}

// customers is how many partitions an export of n items has.
func customers(n int) int { return max(1, n/8) }

// appendItem appends item i of an export of n items as one data line
// ({"Item": {…}} and a newline) and returns what the totals need of it.
func appendItem(b []byte, seed uint64, i, n int) ([]byte, order) {
	r := itemRNG(seed, i)
	cust := r.intn(customers(n))
	created := time.Unix(epoch+int64(r.intn(createdSpan)), 0).UTC()
	status := r.intn(len(Statuses))

	b = append(b, `{"Item":{"PK":{"S":"CUST#`...)
	b = strconv.AppendInt(b, int64(cust), 10)
	b = append(b, `"},"SK":{"S":"ORDER#`...)
	b = created.AppendFormat(b, time.RFC3339)
	b = append(b, '#')
	b = appendPadded(b, i, 8)
	b = append(b, `"},"status":{"S":"`...)
	b = append(b, Statuses[status]...)
	b = append(b, `"},"currency":{"S":"`...)
	b = append(b, currencies[r.intn(len(currencies))]...)
	b = append(b, `"},"created":{"S":"`...)
	b = created.AppendFormat(b, time.RFC3339)

	// The order lines decide qty and total.
	lines := 1 + r.intn(3)
	var cents, qty int64
	b = append(b, `"},"items":{"L":[`...)
	for l := 0; l < lines; l++ {
		q := int64(1 + r.intn(4))
		price := int64(99 + r.intn(20000)) // 0.99 .. 200.98
		qty += q
		cents += q * price
		if l > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"M":{"sku":{"S":"SKU-`...)
		b = strconv.AppendInt(b, int64(1000+r.intn(9000)), 10)
		b = append(b, `"},"qty":{"N":"`...)
		b = strconv.AppendInt(b, q, 10)
		b = append(b, `"},"price":{"N":"`...)
		b = appendCents(b, price)
		b = append(b, `"}}}`...)
	}
	b = append(b, `]},"qty":{"N":"`...)
	b = strconv.AppendInt(b, qty, 10)
	b = append(b, `"},"total":{"N":"`...)
	b = appendCents(b, cents)

	b = append(b, `"},"tags":{"SS":[`...)
	first := r.intn(len(tagWords))
	for t, k := 0, 1+r.intn(3); t < k; t++ { // consecutive words: distinct
		if t > 0 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, tagWords[(first+t)%len(tagWords)]...)
		b = append(b, '"')
	}
	c := cities[r.intn(len(cities))]
	b = append(b, `]},"address":{"M":{"city":{"S":"`...)
	b = append(b, c.city...)
	b = append(b, `"},"zip":{"S":"`...)
	b = appendPadded(b, r.intn(100000), 5)
	b = append(b, `"},"country":{"S":"`...)
	b = append(b, c.country...)
	b = append(b, `"}}},"flag":{"BOOL":`...)
	b = strconv.AppendBool(b, r.intn(2) == 0)
	b = append(b, '}')
	if r.intn(3) == 0 {
		b = append(b, `,"note":{"S":`...)
		b = appendJSONString(b, notes[r.intn(len(notes))])
		b = append(b, '}')
	}
	b = append(b, "}}\n"...)
	return b, order{status: status, cents: cents}
}

// appendCents writes c/100 canonically: 1250 is 12.5, 1200 is 12.
func appendCents(b []byte, c int64) []byte {
	if c < 0 {
		b = append(b, '-')
		c = -c
	}
	b = strconv.AppendInt(b, c/100, 10)
	switch f := c % 100; {
	case f == 0:
	case f%10 == 0:
		b = append(b, '.', byte('0'+f/10))
	default:
		b = append(b, '.', byte('0'+f/10), byte('0'+f%10))
	}
	return b
}

// FormatCents is appendCents as a string, the form ddbsql prints a sum in.
func FormatCents(c int64) string { return string(appendCents(nil, c)) }

func appendPadded(b []byte, v, width int) []byte {
	s := strconv.Itoa(v)
	for k := len(s); k < width; k++ {
		b = append(b, '0')
	}
	return append(b, s...)
}

// appendJSONString quotes s for JSON; s is valid UTF-8 from the tables
// above, so only quotes, backslashes and control bytes need escaping.
func appendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
		default:
			b = append(b, c)
		}
	}
	return append(b, '"')
}

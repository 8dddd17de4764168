package replay

import "strconv"

// The narrow shape (Options.Keys > 0): five attributes, about 100 bytes of
// wire JSON an item, for statements whose cost is the row count rather
// than the width of items (the memory-limit measurements sort and group
// millions of them):
//
//	pk, sk   the table's key, as in the wide shape
//	k        "K#" and NarrowKey(i, Keys) in nine digits: Keys distinct values
//	x        NarrowX(i), a number in [0, 10^9) that does not follow sk
//	status   one of Statuses

// NarrowKey is the group number behind item i's k attribute in a table of
// keys distinct values: i mod keys, scattered by a multiplier coprime
// with keys, so that a group's items are far apart in scan order.
func NarrowKey(i, keys int) int {
	return int(uint64(i%keys) * narrowStride(keys) % uint64(keys))
}

// NarrowKeyText is item i's k attribute.
func NarrowKeyText(i, keys int) string { return "K#" + pad(NarrowKey(i, keys), 9) }

// NarrowX is item i's x attribute: a mix of i's bits (splitmix64) reduced
// to [0, 10^9), so ORDER BY x reorders the whole table.
func NarrowX(i int) int64 {
	z := uint64(i) + 0x9e3779b97f4a7c15
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	z ^= z >> 31
	return int64(z % 1_000_000_000)
}

// narrowStride is the smallest odd number from 7919 up that shares no
// factor with keys.
func narrowStride(keys int) uint64 {
	p := uint64(7919)
	for gcd(p, uint64(keys)) != 1 {
		p += 2
	}
	return p
}

func gcd(a, b uint64) uint64 {
	for b != 0 {
		a, b = b, a%b
	}
	return a
}

// narrowItem appends the narrow item i to dst and returns its DynamoDB size.
func (g *itemGen) narrowItem(dst []byte, i int) ([]byte, int) {
	g.attrs = g.attrs[:0]
	g.buf = g.buf[:0]
	g.s("pk", g.pk(i))
	g.s("sk", sk(i))
	g.s("k", NarrowKeyText(i, g.keys))
	g.n("x", strconv.FormatInt(NarrowX(i), 10))
	g.s("status", Statuses[i%len(Statuses)])
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

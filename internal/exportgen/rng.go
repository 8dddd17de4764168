package exportgen

// rng is SplitMix64: tiny, fast and fixed forever, so an export written
// today is the same bytes on every Go version (math/rand promises less).
type rng struct{ s uint64 }

// itemRNG seeds the generator of item i, so each item is independent of
// the others and of the order in which files are written.
func itemRNG(seed uint64, i int) rng {
	r := rng{s: seed ^ 0x6a09e667f3bcc909}
	r.s += uint64(i) * 0x9e3779b97f4a7c15
	r.next()
	return r
}

func (r *rng) next() uint64 {
	r.s += 0x9e3779b97f4a7c15
	z := r.s
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// intn returns a number in [0, n); n > 0. The modulo bias is irrelevant
// for test data.
func (r *rng) intn(n int) int { return int(r.next() % uint64(n)) }

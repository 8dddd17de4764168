package main

// rng is a small deterministic generator (SplitMix64): the demo must be
// byte-for-byte reproducible on every Go version, which math/rand's helper
// methods do not promise.
type rng struct{ state uint64 }

func newRNG(seed uint64) *rng { return &rng{state: seed} }

func (r *rng) next() uint64 {
	r.state += 0x9e3779b97f4a7c15
	z := r.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// intn returns a number in [0, n).
func (r *rng) intn(n int) int { return int(r.next() % uint64(n)) }

// between returns a number in [lo, hi].
func (r *rng) between(lo, hi int) int { return lo + r.intn(hi-lo+1) }

// chance is true pct percent of the time.
func (r *rng) chance(pct int) bool { return r.intn(100) < pct }

func pick[T any](r *rng, xs []T) T { return xs[r.intn(len(xs))] }

// hex returns n random lowercase hex digits.
func (r *rng) hex(n int) string {
	const digits = "0123456789abcdef"
	b := make([]byte, n)
	for i := range b {
		b[i] = digits[r.intn(16)]
	}
	return string(b)
}

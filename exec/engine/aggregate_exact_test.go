package engine

import (
	"math/big"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// SUM and AVG of many 38-digit numbers, checked against math/big: the sum
// is exact with all its digits (more than DynamoDB's 38), the average is
// the exact quotient rounded to 38 significant digits, half away from zero.
// Numbers are m × 10^k with m of up to 38 digits and k in -20..20, so the
// expected values are computed on integers scaled by 10^20.
func TestAggregateExactSumOfMany(t *testing.T) {
	const scale = 20
	r := rand.New(rand.NewPCG(7, 38))
	for _, n := range []int{1, 2, 3, 7, 100, 2000} {
		batch := otBatch{names: []string{"x"}}
		sum := new(big.Int)
		for range n {
			digits := 38
			if r.IntN(3) == 0 {
				digits = 1 + r.IntN(38)
			}
			m := randomDigits(r, digits)
			k := r.IntN(2*scale+1) - scale
			if r.IntN(4) == 0 {
				k = 0 // plenty of plain integers, so the int64 path meets the rest
			}
			if r.IntN(3) == 0 {
				m = "-" + m
			}
			text := m + "E" + itoa64(int64(k))
			batch.rows = append(batch.rows, []value.Value{otN(text)})
			mi, _ := new(big.Int).SetString(m, 10)
			sum.Add(sum, mi.Mul(mi, pow10(k+scale)))
		}
		env := otEnv(t)
		rows, err := otAggregate(t, env, nil, []expr.Aggregate{otAgg("sum", otCol("x"), false), otAgg("avg", otCol("x"), false)}, batch)
		if err != nil {
			t.Fatalf("%d numbers: %v", n, err)
		}
		wantSum := scaledText(sum, scale)
		wantAvg := roundedQuotient(sum, int64(n), scale, value.MaxDigits)
		otWantRow(t, "SUM, AVG of "+itoa64(int64(n))+" numbers", rows[0], wantSum, wantAvg)
	}
}

func randomDigits(r *rand.Rand, n int) string {
	b := make([]byte, n)
	b[0] = byte('1' + r.IntN(9))
	for i := 1; i < n; i++ {
		b[i] = byte('0' + r.IntN(10))
	}
	return string(b)
}

func pow10(k int) *big.Int { return new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(k)), nil) }

// scaledText writes v / 10^scale in plain notation without trailing zeros.
func scaledText(v *big.Int, scale int) string {
	neg := v.Sign() < 0
	digits := new(big.Int).Abs(v).String()
	if len(digits) <= scale {
		digits = strings.Repeat("0", scale-len(digits)+1) + digits
	}
	whole, frac := digits[:len(digits)-scale], strings.TrimRight(digits[len(digits)-scale:], "0")
	s := whole
	if frac != "" {
		s += "." + frac
	}
	if s == "0" {
		return "0"
	}
	if neg {
		s = "-" + s
	}
	return s
}

// roundedQuotient writes (v / 10^scale) / n rounded to prec significant
// digits, half away from zero, in plain notation.
func roundedQuotient(v *big.Int, n int64, scale, prec int) string {
	if v.Sign() == 0 {
		return "0"
	}
	q := new(big.Rat).SetFrac(new(big.Int).Abs(v), new(big.Int).Mul(big.NewInt(n), pow10(scale)))
	// Find e with 10^(prec-1) <= q·10^-e < 10^prec.
	e := len(new(big.Int).Quo(q.Num(), q.Denom()).String()) - prec
	if q.Cmp(new(big.Rat).SetInt64(1)) < 0 {
		e = -prec
		for new(big.Rat).Mul(q, new(big.Rat).SetInt(pow10(-e))).Cmp(new(big.Rat).SetInt(pow10(prec-1))) < 0 {
			e--
		}
	}
	shifted := new(big.Rat).Set(q)
	if e >= 0 {
		shifted.Quo(shifted, new(big.Rat).SetInt(pow10(e)))
	} else {
		shifted.Mul(shifted, new(big.Rat).SetInt(pow10(-e)))
	}
	// Half away from zero on the magnitude: floor(shifted + 1/2).
	shifted.Add(shifted, big.NewRat(1, 2))
	m := new(big.Int).Quo(shifted.Num(), shifted.Denom())
	// Scale back by 10^e, expressed on the common scale 10^(prec+|e|).
	var out string
	if e >= 0 {
		out = scaledText(m.Mul(m, pow10(e)), 0)
	} else {
		out = scaledText(m, -e)
	}
	if v.Sign() < 0 {
		out = "-" + out
	}
	return out
}

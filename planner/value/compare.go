package value

import "strings"

// Equal reports DynamoDB equality: same type and same value. Sets compare as
// sets, maps and lists deeply. Missing and Null are never equal to anything
// here; SQL's three-valued logic is the evaluator's concern.
func Equal(a, b Value) bool {
	if a.kind != b.kind {
		return false
	}
	switch a.kind {
	case Missing, Null:
		return false
	case String, Binary:
		return a.text == b.text
	case Number:
		return CompareNumbers(a, b) == 0
	case Bool:
		return a.flag == b.flag
	case List:
		if len(a.elems) != len(b.elems) {
			return false
		}
		for i := range a.elems {
			if !Equal(a.elems[i], b.elems[i]) && !(a.elems[i].kind == Null && b.elems[i].kind == Null) {
				return false
			}
		}
		return true
	case Map:
		if len(a.attrs) != len(b.attrs) {
			return false
		}
		for k, av := range a.attrs {
			bv, ok := b.attrs[k]
			if !ok || (!Equal(av, bv) && !(av.kind == Null && bv.kind == Null)) {
				return false
			}
		}
		return true
	case StringSet, NumberSet, BinarySet:
		if len(a.elems) != len(b.elems) {
			return false
		}
		for _, m := range a.elems {
			if !SetContains(b, m) {
				return false
			}
		}
		return true
	}
	return false
}

// SetContains reports whether a set has member m.
func SetContains(set, m Value) bool {
	for _, e := range set.elems {
		if Equal(e, m) {
			return true
		}
	}
	return false
}

// Ordered reports whether DynamoDB can compare a and b with < and >: both
// S, both N, or both B.
func Ordered(a, b Value) bool {
	return a.kind == b.kind && (a.kind == String || a.kind == Number || a.kind == Binary)
}

// CompareScalars orders two values of the same orderable kind (S byte-wise,
// N numerically, B byte-wise). Callers check Ordered first.
func CompareScalars(a, b Value) int {
	if a.kind == Number {
		return CompareNumbers(a, b)
	}
	return strings.Compare(a.text, b.text)
}

// Order is a total order over all values, used by ORDER BY, GROUP BY and
// DISTINCT. Values of different kinds order by kind (Missing, NULL, BOOL, N,
// S, B, NS, SS, BS, L, M); within a kind: false < true, numbers numerically,
// strings and binaries byte-wise, lists and sets element by element, maps by
// their sorted keys then values.
func Order(a, b Value) int {
	if a.kind != b.kind {
		if a.kind < b.kind {
			return -1
		}
		return 1
	}
	switch a.kind {
	case Missing, Null:
		return 0
	case Bool:
		switch {
		case a.flag == b.flag:
			return 0
		case !a.flag:
			return -1
		}
		return 1
	case Number:
		return CompareNumbers(a, b)
	case String, Binary:
		return strings.Compare(a.text, b.text)
	case List, StringSet, NumberSet, BinarySet:
		for i := 0; i < len(a.elems) && i < len(b.elems); i++ {
			if c := Order(a.elems[i], b.elems[i]); c != 0 {
				return c
			}
		}
		return compareInts(len(a.elems), len(b.elems))
	case Map:
		ak, bk := a.SortedKeys(), b.SortedKeys()
		for i := 0; i < len(ak) && i < len(bk); i++ {
			if c := strings.Compare(ak[i], bk[i]); c != 0 {
				return c
			}
			if c := Order(a.attrs[ak[i]], b.attrs[bk[i]]); c != 0 {
				return c
			}
		}
		return compareInts(len(ak), len(bk))
	}
	return 0
}

func compareInts(a, b int) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

package spill

import (
	"fmt"
	"strconv"
	"strings"
)

// ParseSize reads a size as --memory-limit takes it: a whole number of
// bytes, or a number with a unit: B, KB/MB/GB/TB (powers of 1000),
// KiB/MiB/GiB/TiB (powers of 1024), or K/M/G/T (taken as the binary units,
// as sort(1) and Docker do). Case does not matter; spaces are allowed
// between number and unit.
func ParseSize(text string) (int64, error) {
	s := strings.TrimSpace(text)
	i := 0
	for i < len(s) && (s[i] >= '0' && s[i] <= '9' || s[i] == '.') {
		i++
	}
	num, unit := s[:i], strings.ToLower(strings.TrimSpace(s[i:]))
	if num == "" {
		return 0, fmt.Errorf("%q is not a size: give bytes or a number with a unit, such as 512MiB or 4GB", text)
	}
	f, err := strconv.ParseFloat(num, 64)
	if err != nil {
		return 0, fmt.Errorf("%q is not a size: give bytes or a number with a unit, such as 512MiB or 4GB", text)
	}
	mult, ok := sizeUnits[unit]
	if !ok {
		return 0, fmt.Errorf("%q has an unknown unit %q: use B, KB, MB, GB, TB, KiB, MiB, GiB or TiB", text, s[i:])
	}
	n := f * float64(mult)
	if n < 1 || n > 1<<62 {
		return 0, fmt.Errorf("%q is out of range: give at least 1 byte", text)
	}
	return int64(n), nil
}

var sizeUnits = map[string]int64{
	"": 1, "b": 1,
	"k": 1 << 10, "kib": 1 << 10, "kb": 1e3,
	"m": 1 << 20, "mib": 1 << 20, "mb": 1e6,
	"g": 1 << 30, "gib": 1 << 30, "gb": 1e9,
	"t": 1 << 40, "tib": 1 << 40, "tb": 1e12,
}

package plural

import "strconv"

// Of counts a noun: Of(1, "item") is "1 item", Of(2, "item") "2 items", and
// every count other than exactly one (0, negatives) takes the plural.
func Of[N ~int | ~int64](n N, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.FormatInt(int64(n), 10) + " " + word + "s"
}

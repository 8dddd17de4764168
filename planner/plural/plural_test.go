package plural

import "testing"

func TestOf(t *testing.T) {
	for _, c := range []struct {
		got, want string
	}{
		{Of(0, "item"), "0 items"},
		{Of(1, "item"), "1 item"},
		{Of(2, "item"), "2 items"},
		{Of(-1, "row"), "-1 rows"},
		{Of(int64(1), "request"), "1 request"},
		{Of(int64(1)<<40, "request"), "1099511627776 requests"},
	} {
		if c.got != c.want {
			t.Errorf("got %q, want %q", c.got, c.want)
		}
	}
}

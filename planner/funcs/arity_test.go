package funcs

import "testing"

func TestArityText(t *testing.T) {
	tests := []struct {
		f    Func
		want string
	}{
		{Func{MinArgs: 1, MaxArgs: 1}, "1 argument"},
		{Func{MinArgs: 2, MaxArgs: 2}, "2 arguments"},
		{Func{MinArgs: 1, MaxArgs: Variadic}, "at least 1 argument"},
		{Func{MinArgs: 2, MaxArgs: Variadic}, "at least 2 arguments"},
		{Func{MinArgs: 2, MaxArgs: 3}, "2 to 3 arguments"},
	}
	for _, tc := range tests {
		if got := tc.f.ArityText(); got != tc.want {
			t.Errorf("ArityText(%d, %d) = %q, want %q", tc.f.MinArgs, tc.f.MaxArgs, got, tc.want)
		}
	}
}

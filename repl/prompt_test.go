//go:build unix

package repl

import (
	"testing"
	"time"
)

func TestPrompts(t *testing.T) {
	main, cont := prompts("prod@eu-west-1")
	if main != "ddbsql (prod@eu-west-1)> " || cont != "                    ...> " || len(main) != len(cont) {
		t.Errorf("%q %q", main, cont)
	}
	if m, c := prompts(""); m != "ddbsql> " || c != "   ...> " {
		t.Errorf("%q %q", m, c)
	}
	if maxSuggestions(40) != 8 || maxSuggestions(10) != 6 || maxSuggestions(3) != 1 {
		t.Error("maxSuggestions")
	}
}

func TestFormatDuration(t *testing.T) {
	if got := formatDuration(1234567 * time.Nanosecond); got != "1.234 ms" {
		t.Error(got)
	}
	if got := formatDuration(2500 * time.Millisecond); got != "2500.000 ms (2.500 s)" {
		t.Error(got)
	}
}

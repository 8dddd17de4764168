//go:build unix

package repl

import (
	"os"
	"testing"
)

func TestNextPiece(t *testing.T) {
	cases := []struct {
		in   string
		want []string
	}{
		{"SELECT 1;\rSELECT 2;\r\n", []string{"SELECT 1;", "\r", "SELECT 2;", "\r"}},
		{"a\nb\n", []string{"a", "\n", "b", "\n"}},
		{"\x1b[A\x1b[B\x1bOA\x1bb", []string{"\x1b[A", "\x1b[B", "\x1bOA", "\x1bb"}},
		{"\x1b[1;5C", []string{"\x1b[1;5C"}},
		{"ab\x03cd\x04", []string{"ab", "\x03", "cd", "\x04"}},
		{"\t", []string{"\t"}},
		{"x\x7fy", []string{"x", "\x7f", "y"}},
		{"héllo", []string{"héllo"}},
		{"\x1b", []string{"\x1b"}},
	}
	for _, c := range cases {
		q := []byte(c.in)
		var got []string
		for len(q) > 0 {
			var p []byte
			p, q = nextPiece(q)
			got = append(got, string(p))
		}
		if len(got) != len(c.want) {
			t.Errorf("%q: %q, want %q", c.in, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%q: %q, want %q", c.in, got, c.want)
				break
			}
		}
	}
}

func TestPasteTabs(t *testing.T) {
	b := []byte("SELECT\ta\tFROM t")
	pasteTabs(b)
	if string(b) != "SELECT a FROM t" {
		t.Errorf("paste: %q", b)
	}
	key := []byte("\t")
	pasteTabs(key)
	if string(key) != "\t" {
		t.Errorf("a lone Tab is the Tab key: %q", key)
	}
}

// ttyInput hands out nothing after an Enter until rearm: go-prompt's Input
// returns on Enter and drops what its reader already read.
func TestInputGatesAfterEnter(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	in := &ttyInput{term: &terminal{fd: int(r.Fd())}}
	w.WriteString("SELECT 1;\rSELECT 2;\r")
	read := func() string {
		t.Helper()
		for i := 0; i < 100; i++ {
			b, err := in.Read()
			if err == nil {
				return string(b)
			}
			if err != errNoInput {
				t.Fatal(err)
			}
			if in.gated {
				return "<gated>"
			}
		}
		return "<nothing>"
	}
	for _, want := range []string{"SELECT 1;", "\r", "<gated>"} {
		if got := read(); got != want {
			t.Fatalf("got %q, want %q", got, want)
		}
	}
	if !in.takeEntered() || in.takeEntered() {
		t.Fatal("takeEntered should report the Enter once")
	}
	in.rearm()
	for _, want := range []string{"SELECT 2;", "\r", "<gated>"} {
		if got := read(); got != want {
			t.Fatalf("after rearm: got %q, want %q", got, want)
		}
	}
	in.rearm()
	w.Close()
	if got := read(); got != "\x03" || !in.ended() {
		t.Fatalf("end of input: got %q (ended %v), want a Ctrl-C piece", got, in.ended())
	}
}

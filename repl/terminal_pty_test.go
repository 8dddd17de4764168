//go:build linux

package repl_test

import (
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// sgrRE matches Select Graphic Rendition sequences (colours, bold,
// reverse); cursor movement and erasing are other sequences.
var sgrRE = regexp.MustCompile("\x1b\\[([0-9;]*)m")

// colourSequences returns the SGR sequences that set a colour: a
// parameter 30–49 (foreground, background, 256/true colour, default
// colour) or 90–107 (bright colours).
func colourSequences(out string) []string {
	var found []string
	for _, m := range sgrRE.FindAllStringSubmatch(out, -1) {
		for _, p := range strings.Split(m[1], ";") {
			n, err := strconv.Atoi(p)
			if err == nil && (n >= 30 && n <= 49 || n >= 90 && n <= 107) {
				found = append(found, strconv.Quote(m[0]))
				break
			}
		}
	}
	return found
}

// completeCustomers opens the completion menu on the demo's customers
// table, picks it with Tab, runs the statement and quits.
func completeCustomers(t *testing.T, s *screen, prompt string) {
	t.Helper()
	s.send("SELECT name FROM cus")
	s.expect("customers")
	s.send("\t")
	s.expect("customers")
	s.send(" WHERE id = 'u_004';\r")
	s.expect("Dave Suzuki")
	s.expect(prompt)
	s.send("\\q\r")
	if code := s.waitExit(); code != 0 {
		t.Fatalf("exit status %d", code)
	}
}

// testNoColor checks that NO_COLOR (any non-empty value) and --no-color
// leave every colour out, the completion menu's included, while the
// selected row stays marked (reverse video); and that without them the
// menu is coloured, so the check can fail.
func (e *replEnv) testNoColor(t *testing.T) {
	const prompt = "ddbsql (demo)> "
	t.Run("colours by default", func(t *testing.T) {
		s := startScreen(t, e.bin, e.env(t), "--demo")
		s.expect(prompt)
		completeCustomers(t, s, prompt)
		if len(colourSequences(s.text())) == 0 {
			t.Errorf("no colour sequences without NO_COLOR: the check below proves nothing")
		}
	})
	for _, c := range []struct {
		name string
		env  func(t *testing.T) []string
		args []string
	}{
		{"NO_COLOR=1", func(t *testing.T) []string { return e.env(t, "NO_COLOR=1") }, nil},
		{"NO_COLOR=false counts too", func(t *testing.T) []string { return e.env(t, "NO_COLOR=false") }, nil},
		{"--no-color", func(t *testing.T) []string { return e.env(t) }, []string{"--no-color"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			s := startScreen(t, e.bin, c.env(t), append([]string{"--demo"}, c.args...)...)
			s.expect(prompt)
			completeCustomers(t, s, prompt)
			out := s.text()
			if found := colourSequences(out); len(found) > 0 {
				t.Errorf("%d colour sequences, e.g. %s", len(found), found[0])
			}
			if !strings.Contains(out, "\x1b[0;7") {
				t.Errorf("the selected suggestion is not shown in reverse video")
			}
		})
	}
	t.Run("NO_COLOR empty keeps colours", func(t *testing.T) {
		s := startScreen(t, e.bin, e.env(t, "NO_COLOR="), "--demo")
		s.expect(prompt)
		completeCustomers(t, s, prompt)
		if len(colourSequences(s.text())) == 0 {
			t.Errorf("an empty NO_COLOR turned colours off; no-color.org says only a non-empty value does")
		}
	})
}

package format

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// displayText makes a cell safe to print on a terminal or in a markdown
// table: a tab becomes four spaces (as go-pretty does), CRLF becomes a line
// break, and every other control character (a lone CR, ESC, DEL, C1 codes)
// is shown as a Go-style escape (\r, \x1b, \u009b) so data can neither break
// alignment nor drive the terminal. Line feeds are kept: table cells span
// lines, markdown turns them into <br/>.
func displayText(s string) string {
	if !needsEscape(s) {
		return s
	}
	s = strings.ReplaceAll(s, "\r\n", "\n")
	var b strings.Builder
	b.Grow(len(s) + 8)
	for _, r := range s {
		switch {
		case r == '\n':
			b.WriteByte('\n')
		case r == '\t':
			b.WriteString("    ")
		case r == '\r':
			b.WriteString(`\r`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&b, `\x%02x`, r)
		case r >= 0x80 && r <= 0x9f:
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteRune(r)
		}
	}
	return b.String()
}

func needsEscape(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if (c < 0x20 && c != '\n') || c == 0x7f {
			return true
		}
		if c == 0xc2 { // C1 controls are U+0080..U+009F, encoded c2 80..c2 9f
			if r, _ := utf8.DecodeRuneInString(s[i:]); r >= 0x80 && r <= 0x9f {
				return true
			}
		}
	}
	return false
}

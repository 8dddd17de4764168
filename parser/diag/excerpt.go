package diag

import (
	"strings"
	"unicode/utf8"
)

// maxShownLine bounds the source line printed under the message, so that an
// error in a one-line, megabyte-long script stays readable.
const maxShownLine = 100

// writeExcerpt writes the source line and a caret under column col, each
// indented by two spaces on a line of its own. A first column of an empty
// line has nothing to point at and writes nothing.
func writeExcerpt(sb *strings.Builder, line string, col int) {
	if line == "" && col <= 1 {
		return
	}
	text, col := window(line, col)
	sb.WriteString("\n  ")
	sb.WriteString(text)
	sb.WriteString("\n  ")
	sb.WriteString(caretPad(text, col))
	sb.WriteString("^")
}

// window cuts a long line to maxShownLine characters around col and returns
// the cut text and the column within it.
func window(line string, col int) (string, int) {
	runes := []rune(line)
	if len(runes) <= maxShownLine {
		return line, col
	}
	start := col - 1 - maxShownLine/2
	if start < 0 {
		start = 0
	}
	end := start + maxShownLine
	if end > len(runes) {
		end = len(runes)
		start = max(0, end-maxShownLine)
	}
	prefix, suffix := "", ""
	if start > 0 {
		prefix = "…"
	}
	if end < len(runes) {
		suffix = "…"
	}
	shift := start - utf8.RuneCountInString(prefix)
	return prefix + string(runes[start:end]) + suffix, col - shift
}

// caretPad is the indentation that puts a caret under column col of text:
// tabs are copied so the caret lines up in a terminal, other runes become spaces.
func caretPad(text string, col int) string {
	var sb strings.Builder
	n := 0
	for _, r := range text {
		if n >= col-1 {
			break
		}
		if r == '\t' {
			sb.WriteByte('\t')
		} else {
			sb.WriteByte(' ')
		}
		n++
	}
	for ; n < col-1; n++ {
		sb.WriteByte(' ')
	}
	return sb.String()
}

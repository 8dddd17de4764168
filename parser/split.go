package parser

// Piece is one statement's text as cut out of a script by Split.
type Piece struct {
	Text  string // the statement without its ';' and surrounding whitespace
	Start int    // byte offset of Text in the input
}

// Split cuts input into statements at each ';' that is outside '…', "…" and
// `…` and outside --, #, // and /* */ comments. Pieces that are empty, blank
// or hold only comments are dropped. An unterminated quote or comment runs to
// the end of the input, so a ';' after it does not split (Parse reports it).
func Split(input string) []Piece {
	var pieces []Piece
	start, hasCode := 0, false
	flush := func(end int) {
		if hasCode {
			a, b := trimBlank(input, start, end)
			pieces = append(pieces, Piece{Text: input[a:b], Start: a})
		}
	}
	eachToken(input, 0, len(input), func(t token) bool {
		switch {
		case t.kind == tkPunct && input[t.start] == ';':
			flush(t.start)
			start, hasCode = t.end, false
		case t.kind != tkComment:
			hasCode = true
		}
		return true
	})
	flush(len(input))
	return pieces
}

// trimBlank narrows src[a:b] to exclude leading and trailing blanks.
func trimBlank(src string, a, b int) (int, int) {
	for a < b && isBlank(src[a]) {
		a++
	}
	for b > a && isBlank(src[b-1]) {
		b--
	}
	return a, b
}

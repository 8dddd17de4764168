package parser

import "github.com/ddbsql/ddbsql/parser/diag"

// listLiteral handles PartiQL's list literal after IN at toks[open]:
// x IN ['a', 'b'] means x IN ('a', 'b'), so its brackets are handed to
// sqlparser as parentheses (same length: positions do not move). A '['
// anywhere else is a list index, which path handles. The values inside are
// operands like those in parentheses, so the list gets its own frame.
func (r *nameRewriter) listLiteral(open int) *diag.Error {
	closing := r.matchBracket(open)
	switch {
	case closing < 0:
		return errAt(diag.CodeSyntax, r.toks[open].start,
			"the list after IN is not closed: '[' has no matching ']'",
			"write the values in brackets, as in x IN ['a', 'b'], or in parentheses: x IN ('a', 'b')")
	case closing == open+1:
		return errAt(diag.CodeSyntax, r.toks[open].start,
			"empty list after IN: [] holds no value",
			"IN needs at least one value, as in x IN ['a', 'b']")
	}
	r.lists[open], r.lists[closing] = true, true
	r.edits = append(r.edits,
		edit{start: r.toks[open].start, end: r.toks[open].end, text: "("},
		edit{start: r.toks[closing].start, end: r.toks[closing].end, text: ")"})
	r.frames = append(r.frames, frame{opener: "in", typeCtx: r.top().typeCtx})
	return nil
}

// matchBracket returns the index of the ']' that closes the '[' at
// toks[open], or -1 when brackets and parentheses in between do not nest
// (a ')' that closes something opened before the list, or the end).
func (r *nameRewriter) matchBracket(open int) int {
	var stack []string // the closers expected, innermost last
	for j := open; j < len(r.toks); j++ {
		if r.toks[j].kind != tkPunct {
			continue
		}
		switch p := r.text(j); p {
		case "[":
			stack = append(stack, "]")
		case "(":
			stack = append(stack, ")")
		case "]", ")":
			if stack[len(stack)-1] != p {
				return -1
			}
			stack = stack[:len(stack)-1]
			if len(stack) == 0 {
				return j
			}
		}
	}
	return -1
}

package parser

import (
	"strconv"
	"strings"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// sqlparser has no OVER clause. The rewriter turns
//
//	f(args) OVER (PARTITION BY p1, p2 ORDER BY o1 DESC NULLS LAST ROWS …)
//
// into the call name(f(args) , p1, p2 , o1 ) that sqlparser parses as any
// other, by editing only the OVER clause's keywords: "OVER (" becomes a
// blank, "PARTITION BY" and "ORDER BY" become commas, directions and the
// frame become blanks, and the call's closing parenthesis is OVER's. The
// expressions stay where they were written, so the rewriter still turns
// their document paths and keyword names into names, and sqlparser's
// positions in them map back exactly. What the keywords said is kept in a
// Window under the synthetic name.

// windowHint says what to write instead of a named window.
const windowHint = "write the window's specification in parentheses after OVER, as in OVER (PARTITION BY a ORDER BY b)"

// windowPrefix picks the synthetic function name prefix of a statement: one
// absent from its text, so that no function written in it can collide.
func windowPrefix(stmt string) string {
	p := "ddbsql_over"
	for low := strings.ToLower(stmt); strings.Contains(low, p); {
		p += "x"
	}
	return p + "_"
}

// over handles the OVER keyword at toks[i], which follows a ')'. It adds
// the edits of the clause, marks its keywords to be skipped and records
// the Window.
func (r *nameRewriter) over(i int) *diag.Error {
	at := r.toks[i].start
	if !r.isPunct(i+1, "(") {
		if i+1 < len(r.toks) && (r.toks[i+1].kind == tkIdent || r.toks[i+1].kind == tkQuoted) {
			return errAt(diag.CodeUnsupported, at, "named windows (OVER "+r.text(i+1)+") are not supported", windowHint)
		}
		return errAt(diag.CodeSyntax, at, "OVER must be followed by a window specification in parentheses", windowHint)
	}
	open := r.matchBack(i - 1)
	if open < 1 || r.toks[open-1].kind != tkIdent || operatorKeywords[r.word(open-1)] {
		return errAt(diag.CodeSyntax, at, "OVER must follow a function call, as in ROW_NUMBER() OVER (ORDER BY x)", "")
	}
	close := r.matchForward(i + 1)
	if close < 0 {
		return errAt(diag.CodeSyntax, r.toks[i+1].start, "the window specification after OVER has no closing parenthesis", "")
	}
	w := &Window{Loc: Span{at, r.toks[close].end}}
	if err := r.windowSpec(w, i+2, close); err != nil {
		return err
	}
	if r.windows == nil {
		r.windows = map[string]*Window{}
		r.windowPrefix = windowPrefix(r.src[r.toks[0].start:r.toks[len(r.toks)-1].end])
	}
	name := r.windowPrefix + strconv.Itoa(len(r.windows)+1)
	r.windows[name] = w
	r.callAs(open-1, name)
	r.edits = append(r.edits, edit{start: at, end: r.toks[i+1].end, text: " "})
	r.skipKeywords(i, i, "")
	r.edits = r.edits[:len(r.edits)-1] // OVER's edit covers it
	return nil
}

// windowWords are the start offsets of the OVER clauses' keywords.
func (r *nameRewriter) windowWords() map[int]bool {
	out := make(map[int]bool, len(r.keywordSkip))
	for j := range r.keywordSkip {
		out[r.toks[j].start] = true
	}
	return out
}

// callAs wraps the function call whose name is toks[fn] in a call of name:
// "f" becomes "name(f", keeping any edit of f itself.
func (r *nameRewriter) callAs(fn int, name string) {
	t := r.toks[fn]
	for k := range r.edits {
		if r.edits[k].start == t.start && r.edits[k].end == t.end {
			r.edits[k].text = name + "(" + r.edits[k].text
			return
		}
	}
	r.edits = append(r.edits, edit{start: t.start, end: t.end, text: name + "(" + r.text(fn)})
}

// matchBack finds the '(' matching the ')' at toks[c], or -1.
func (r *nameRewriter) matchBack(c int) int {
	depth := 0
	for j := c; j >= 0; j-- {
		switch {
		case r.isPunct(j, ")"):
			depth++
		case r.isPunct(j, "("):
			if depth--; depth == 0 {
				return j
			}
		}
	}
	return -1
}

// matchForward finds the ')' matching the '(' at toks[o], or -1.
func (r *nameRewriter) matchForward(o int) int {
	depth := 0
	for j := o; j < len(r.toks); j++ {
		switch {
		case r.isPunct(j, "("):
			depth++
		case r.isPunct(j, ")"):
			if depth--; depth == 0 {
				return j
			}
		}
	}
	return -1
}

// skipKeywords marks toks[a..b] as keywords of a window clause (not names)
// and replaces their text with repl.
func (r *nameRewriter) skipKeywords(a, b int, repl string) {
	if r.keywordSkip == nil {
		r.keywordSkip = map[int]bool{}
	}
	for j := a; j <= b; j++ {
		r.keywordSkip[j] = true
	}
	r.edits = append(r.edits, edit{start: r.toks[a].start, end: r.toks[b].end, text: repl})
}

// windowSpec reads the tokens toks[from:close] of a window specification.
func (r *nameRewriter) windowSpec(w *Window, from, close int) *diag.Error {
	const (
		none = iota
		partition
		order
	)
	section, depth := none, 0
	expecting := false // an expression must start here
	endSection := func(j int) *diag.Error {
		if expecting {
			what := "PARTITION BY"
			if section == order {
				what = "ORDER BY"
			}
			return errAt(diag.CodeSyntax, r.toks[j].start, "expected an expression after "+what+" in the window specification",
				"list the expressions after "+what+", separated by commas")
		}
		return nil
	}
	for j := from; j < close; j++ {
		if depth > 0 {
			switch {
			case r.isPunct(j, "("):
				depth++
			case r.isPunct(j, ")"):
				depth--
			}
			continue
		}
		word := r.word(j)
		switch {
		case (word == "partition" || word == "order") && r.word(j+1) == "by":
			if err := endSection(j); err != nil {
				return err
			}
			if section == order || section == partition && word == "partition" {
				return errAt(diag.CodeSyntax, r.toks[j].start, "unexpected "+strings.ToUpper(word)+" BY in the window specification",
					"a window specification is [PARTITION BY …] [ORDER BY …] [ROWS|RANGE …], in that order")
			}
			section = partition
			if word == "order" {
				section = order
			}
			r.skipKeywords(j, j+1, ",")
			j++
			expecting = true
			continue
		case (word == "rows" || word == "range" || word == "groups") && r.frameFollows(j+1):
			if err := endSection(j); err != nil {
				return err
			}
			return r.frame(w, j, close)
		case section != none && !expecting && section == order && (word == "asc" || word == "desc"):
			w.Order[len(w.Order)-1].Desc = word == "desc"
			r.skipKeywords(j, j, " ")
			continue
		case section == order && !expecting && word == "nulls" && (r.word(j+1) == "first" || r.word(j+1) == "last"):
			w.Order[len(w.Order)-1].Nulls = NullsFirst
			if r.word(j+1) == "last" {
				w.Order[len(w.Order)-1].Nulls = NullsLast
			}
			r.skipKeywords(j, j+1, " ")
			j++
			continue
		case section == none:
			return errAt(diag.CodeSyntax, r.toks[j].start, "unexpected "+quoteSnippet(r.text(j))+" in the window specification",
				"a window specification is [PARTITION BY …] [ORDER BY …] [ROWS|RANGE …]; named windows are not supported")
		case r.isPunct(j, ","):
			if expecting {
				return errAt(diag.CodeSyntax, r.toks[j].start, "unexpected ',' in the window specification", "")
			}
			expecting = true
			continue
		}
		if expecting {
			expecting = false
			if section == partition {
				w.Partition++
			} else {
				w.Order = append(w.Order, WindowOrder{})
			}
		}
		if r.isPunct(j, "(") {
			depth++
		}
	}
	return endSection(close)
}

// frameFollows reports whether toks[j] starts a frame's extent (BETWEEN,
// UNBOUNDED, CURRENT or an offset), so that ROWS and RANGE there are the
// frame keywords and not names.
func (r *nameRewriter) frameFollows(j int) bool {
	switch r.word(j) {
	case "between", "unbounded", "current":
		return true
	}
	if j < len(r.toks) && r.text(j) == "-" {
		j++ // a negative offset, which frameBound rejects
	}
	return j < len(r.toks) && r.toks[j].kind == tkNumber
}

// frame reads ROWS|RANGE [BETWEEN b AND b | b] at toks[j:close].
func (r *nameRewriter) frame(w *Window, j, close int) *diag.Error {
	mode := r.word(j)
	if mode == "groups" {
		return errAt(diag.CodeUnsupported, r.toks[j].start, "GROUPS frames are not supported", "use ROWS or RANGE")
	}
	f := &Frame{Rows: mode == "rows"}
	k := j + 1
	var err *diag.Error
	if r.word(k) == "between" {
		if f.Start, k, err = r.frameBound(k+1, close, f.Rows); err != nil {
			return err
		}
		if r.word(k) != "and" {
			return r.frameSyntax(k, close, "expected AND between the frame's two bounds")
		}
		if f.End, k, err = r.frameBound(k+1, close, f.Rows); err != nil {
			return err
		}
	} else {
		if f.Start, k, err = r.frameBound(k, close, f.Rows); err != nil {
			return err
		}
		f.End = FrameBound{Kind: CurrentRow, Loc: f.Start.Loc}
	}
	if k < close {
		if r.word(k) == "exclude" {
			return errAt(diag.CodeUnsupported, r.toks[k].start, "EXCLUDE in a window frame is not supported", "")
		}
		return r.frameSyntax(k, close, "unexpected "+quoteSnippet(r.text(k))+" after the window frame")
	}
	switch {
	case f.Start.Kind == UnboundedFollowing:
		return errAt(diag.CodeSyntax, f.Start.Loc.Start, "a window frame cannot start at UNBOUNDED FOLLOWING", "")
	case f.End.Kind == UnboundedPreceding:
		return errAt(diag.CodeSyntax, f.End.Loc.Start, "a window frame cannot end at UNBOUNDED PRECEDING", "")
	case f.Start.Kind > f.End.Kind:
		return errAt(diag.CodeSyntax, f.Start.Loc.Start, "the window frame starts after it ends ("+f.Start.String()+" AND "+f.End.String()+")",
			"write the earlier bound first, as in ROWS BETWEEN 1 PRECEDING AND CURRENT ROW")
	}
	f.Loc = Span{r.toks[j].start, r.toks[close-1].end}
	w.Frame = f
	r.skipKeywords(j, close-1, " ")
	return nil
}

// frameSyntax is a syntax error at toks[k], or at the clause's end.
func (r *nameRewriter) frameSyntax(k, close int, msg string) *diag.Error {
	if k >= close {
		return errAt(diag.CodeSyntax, r.toks[close].start, "unexpected ')': the window frame is incomplete",
			"a frame is ROWS|RANGE BETWEEN <bound> AND <bound>, a bound being UNBOUNDED PRECEDING, n PRECEDING, CURRENT ROW, n FOLLOWING or UNBOUNDED FOLLOWING")
	}
	return errAt(diag.CodeSyntax, r.toks[k].start, msg, "")
}

// frameBound reads one bound at toks[k] and returns the index after it.
// A ROWS offset is a whole number of rows; a RANGE offset is any
// non-negative decimal number, a distance between ORDER BY values (the
// planner reads it exactly).
func (r *nameRewriter) frameBound(k, close int, rows bool) (FrameBound, int, *diag.Error) {
	if k >= close {
		return FrameBound{}, k, r.frameSyntax(k, close, "")
	}
	start := r.toks[k].start
	b := FrameBound{}
	switch w := r.word(k); {
	case w == "unbounded" && (r.word(k+1) == "preceding" || r.word(k+1) == "following"):
		b.Kind = UnboundedPreceding
		if r.word(k+1) == "following" {
			b.Kind = UnboundedFollowing
		}
	case w == "current" && r.word(k+1) == "row":
		b.Kind = CurrentRow
	case r.toks[k].kind == tkNumber && (r.word(k+1) == "preceding" || r.word(k+1) == "following"):
		offset, err := r.frameOffset(k, rows)
		if err != nil {
			return b, k, err
		}
		b.Kind, b.Offset = Preceding, offset
		if r.word(k+1) == "following" {
			b.Kind = Following
		}
	case r.text(k) == "-" && k+2 < close && r.toks[k+1].kind == tkNumber && (r.word(k+2) == "preceding" || r.word(k+2) == "following"):
		return b, k, errAt(diag.CodeSyntax, start, "a frame offset cannot be negative, got "+quoteSnippet("-"+r.text(k+1)),
			"write n PRECEDING for an earlier bound and n FOLLOWING for a later one, n being 0 or more")
	default:
		if next := r.word(k + 1); k+1 < close && (next == "preceding" || next == "following") {
			return b, k, errAt(diag.CodeUnsupported, start, "a frame offset must be a whole number written as digits", "")
		}
		return b, k, r.frameSyntax(k, close, "expected a frame bound (UNBOUNDED PRECEDING, n PRECEDING, CURRENT ROW, n FOLLOWING or UNBOUNDED FOLLOWING), got "+quoteSnippet(r.text(k)))
	}
	b.Loc = Span{start, r.toks[k+1].end}
	return b, k + 2, nil
}

// frameOffset checks the offset toks[k] of a bound: digits for ROWS, a
// decimal number (digits, a point, an exponent) for RANGE.
func (r *nameRewriter) frameOffset(k int, rows bool) (string, *diag.Error) {
	text, start := r.text(k), r.toks[k].start
	if rows {
		if !allDigits(text) {
			return "", errAt(diag.CodeSyntax, start, "a ROWS frame offset is a non-negative whole number, got "+quoteSnippet(text), "")
		}
		if _, err := strconv.ParseInt(text, 10, 64); err != nil {
			return "", errAt(diag.CodeSyntax, start, "the frame offset "+quoteSnippet(text)+" is too large", "")
		}
		if trimmed := strings.TrimLeft(text, "0"); trimmed != "" {
			return trimmed, nil
		}
		return "0", nil
	}
	if strings.HasPrefix(strings.ToLower(text), "0x") {
		return "", errAt(diag.CodeSyntax, start, "a RANGE frame offset is a decimal number such as 10 or 1.5, got "+quoteSnippet(text), "")
	}
	return text, nil
}

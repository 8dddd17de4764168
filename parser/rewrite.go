package parser

import (
	"strings"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// frame is what the rewriter knows about one level of parentheses.
type frame struct {
	opener  string // lowercased name or keyword right before '(', "" if none
	clause  string // last clause keyword seen at this level (select, from, where…)
	typeCtx bool   // inside the type of CAST(x AS type) / CONVERT(x, type): leave alone
	noPaths bool   // a list of plain names: USE INDEX (…), USING (…)
	cases   int    // CASE expressions open at this level, waiting for END
}

// position is the grammatical slot a name-like token is in, judged from the
// token before it. It decides whether a keyword there is really a name.
type position uint8

const (
	posOther        position = iota
	posOperand               // an expression starts here: select list, WHERE, ON, args…
	posTable                 // a table reference: after FROM, JOIN, or ',' in a FROM list
	posAlias                 // after AS
	posAfterOperand          // right after a complete operand: an implicit alias
	posAfterDot              // the part after '.' in a qualified name
)

// SubstringFunc is the function name SUBSTRING and SUBSTR are rewritten to,
// so that sqlparser reads them as ordinary calls.
const SubstringFunc = "ddbsql_substring"

// nameRewriter turns the significant tokens of one SELECT into edits:
// document paths become synthetic names, soft keywords used as names become
// backticked names. It only reads tokens; it never re-lexes.
type nameRewriter struct {
	src    string
	toks   []token // significant tokens (no comments)
	asName []bool  // toks[i] is used as a name (so it ends an operand)
	frames []frame
	edits  []edit
	paths  map[string]Path
	byPath map[string]string // path text -> synthetic name, so a path repeats as one column
	prefix string
	// lists marks the '[' and ']' of PartiQL list literals (x IN ['a', 'b']),
	// which are handed to sqlparser as parentheses.
	lists map[int]bool
	// loneQuoted are the "…" names written alone where an operand starts
	// (not qualified, not a path, not a function): the ones a user coming
	// from MySQL may have meant as strings.
	loneQuoted map[string]bool
	// skip maps the first token of an UNNEST's alias, which unnest has
	// already rewritten, to its last.
	skip map[int]int
	// windows are the OVER clauses read so far, by the synthetic name of
	// their call (windowrewrite.go); keywordSkip marks their keywords.
	windows      map[string]*Window
	windowPrefix string
	keywordSkip  map[int]bool
}

func newNameRewriter(src string, toks []token, stmt string) *nameRewriter {
	return &nameRewriter{
		src:    src,
		toks:   toks,
		asName: make([]bool, len(toks)),
		frames: []frame{{}},
		paths:  map[string]Path{},
		byPath: map[string]string{},
		prefix: syntheticPrefix(stmt),
		lists:  map[int]bool{},

		loneQuoted: map[string]bool{},
	}
}

func (r *nameRewriter) text(i int) string { return r.src[r.toks[i].start:r.toks[i].end] }

func (r *nameRewriter) top() *frame { return &r.frames[len(r.frames)-1] }

// isPunct reports whether toks[i] exists and is the punctuation p.
func (r *nameRewriter) isPunct(i int, p string) bool {
	return i >= 0 && i < len(r.toks) && r.toks[i].kind == tkPunct && r.text(i) == p
}

// word is the lowercased text of toks[i] if it is a plain name or keyword.
func (r *nameRewriter) word(i int) string {
	if i < 0 || i >= len(r.toks) || r.toks[i].kind != tkIdent {
		return ""
	}
	return lower(r.text(i))
}

// run walks the tokens once and collects the edits.
func (r *nameRewriter) run() *diag.Error {
	for i := 0; i < len(r.toks); i++ {
		if last, ok := r.skip[i]; ok {
			i = last
			continue
		}
		t := r.toks[i]
		if r.keywordSkip[i] {
			continue
		}
		if t.kind == tkIdent && r.word(i) == "over" && r.isPunct(i-1, ")") {
			if err := r.over(i); err != nil {
				return err
			}
			continue
		}
		switch t.kind {
		case tkPunct:
			if err := r.punct(i); err != nil {
				return err
			}
		case tkString:
			r.keepLikeEscapes(i)
		case tkIdent, tkQuoted:
			if w := r.word(i); (w == "substring" || w == "substr") && r.isPunct(i+1, "(") && !r.fromForSyntax(i+1) {
				// sqlparser's grammar only takes a column as SUBSTRING's
				// first argument; as a plain function call it takes any
				// expression (the planner maps the name back).
				r.edits = append(r.edits, edit{start: t.start, end: t.end, text: SubstringFunc})
				continue
			}
			if w := r.word(i); w == "unnest" && r.isPunct(i+1, "(") && r.position(i) == posTable {
				from, to, err := r.unnest(i)
				if err != nil {
					return err
				}
				if r.skip == nil {
					r.skip = map[int]int{}
				}
				r.skip[from] = to
				r.top().clause = "from"
				continue
			}
			next, err := r.name(i)
			if err != nil {
				return err
			}
			i = next
		}
	}
	return nil
}

// keepLikeEscapes makes \% and \_ in a string literal keep their
// backslash, as MySQL does (its manual: they "evaluate to the strings \% and
// \_"), so LIKE 'a\%' matches a literal %; sqlparser would drop it.
func (r *nameRewriter) keepLikeEscapes(i int) {
	t := r.toks[i]
	text := r.text(i)
	if len(text) < 2 || text[0] != '\'' || !strings.Contains(text, "\\") {
		return
	}
	var sb strings.Builder
	changed := false
	for j := 0; j < len(text); j++ {
		if text[j] == '\\' && j+1 < len(text) {
			if next := text[j+1]; next == '%' || next == '_' {
				sb.WriteString("\\\\")
				sb.WriteByte(next)
				changed = true
			} else {
				sb.WriteByte('\\')
				sb.WriteByte(next)
			}
			j++
			continue
		}
		sb.WriteByte(text[j])
	}
	if changed {
		r.edits = append(r.edits, edit{start: t.start, end: t.end, text: sb.String()})
	}
}

// fromForSyntax reports whether the parenthesis at toks[open] holds the
// SUBSTRING(x FROM a FOR b) form, which sqlparser's grammar handles itself.
func (r *nameRewriter) fromForSyntax(open int) bool {
	depth := 0
	for j := open; j < len(r.toks); j++ {
		switch {
		case r.isPunct(j, "("):
			depth++
		case r.isPunct(j, ")"):
			depth--
			if depth == 0 {
				return false
			}
		case depth == 1 && r.word(j) == "from":
			return true
		}
	}
	return false
}

func (r *nameRewriter) punct(i int) *diag.Error {
	switch r.text(i) {
	case "||":
		// String concatenation, as in standard SQL, PartiQL and SQLite
		// (sqlparser would read MySQL's logical OR). Handed over as the
		// one-bar operator, which parses just above the comparisons; a
		// bar written alone is no operator ddbsql has.
		r.edits = append(r.edits, edit{start: r.toks[i].start, end: r.toks[i].end, text: "|"})
	case "|":
		return errAt(diag.CodeUnsupported, r.toks[i].start, "the | operator (bitwise OR) is not supported",
			"for string concatenation write a || b or CONCAT(a, b); for a logical OR write OR")
	case "[":
		if r.word(i-1) == "in" {
			return r.listLiteral(i)
		}
	case "]":
		if r.lists[i] && len(r.frames) > 1 {
			r.frames = r.frames[:len(r.frames)-1]
		}
	case "(":
		f := frame{opener: r.word(i - 1), typeCtx: r.top().typeCtx}
		switch {
		case r.position(i) == posTable:
			f.clause = "from" // FROM (a, b): a parenthesized table list
		case f.opener == "index" || f.opener == "key" || f.opener == "using":
			f.noPaths = true
		}
		r.frames = append(r.frames, f)
	case ")":
		if len(r.frames) > 1 {
			r.frames = r.frames[:len(r.frames)-1]
		}
	case ",":
		if r.top().opener == "convert" {
			r.top().typeCtx = true
		}
	}
	return nil
}

// position classifies the slot of toks[i] by the token before it.
func (r *nameRewriter) position(i int) position {
	if i == 0 {
		return posOther
	}
	p := i - 1
	f := r.top()
	switch r.toks[p].kind {
	case tkPunct:
		switch r.text(p) {
		case ".":
			return posAfterDot
		case ")", "]":
			return posAfterOperand
		case "[":
			if r.lists[p] {
				return posOperand // the first value of x IN [ … ]
			}
			return posOther
		case ",":
			if f.clause == "from" || f.clause == "on" || f.clause == "using" {
				return posTable
			}
			return posOperand
		}
		if operandPuncts[r.text(p)] {
			return posOperand
		}
		return posOther
	case tkIdent:
		if r.asName[p] {
			return posAfterOperand
		}
		switch w := r.word(p); {
		case w == "as":
			return posAlias
		case w == "from" && f.opener != "substr" && f.opener != "substring",
			w == "join", w == "straight_join" && f.clause != "select",
			w == "into", w == "update" && p == 0:
			return posTable
		case operandKeywords[w] || w == "from":
			return posOperand
		case w == "end" || w == "null" || w == "true" || w == "false":
			return posAfterOperand
		}
		return posOther
	case tkQuoted, tkString, tkNumber, tkParam:
		return posAfterOperand
	}
	return posOther
}

// name handles a plain name, keyword or backticked name at toks[i] and
// returns the index of the last token it consumed.
func (r *nameRewriter) name(i int) (int, *diag.Error) {
	f := r.top()
	pos := r.position(i)
	kw := r.toks[i].kind == tkIdent && isKeyword(r.text(i))
	if pos == posAfterDot {
		// After '.', sqlparser accepts any keyword but lowercases it.
		if kw && !f.typeCtx || isDoubleQuoted(r.src, r.toks[i]) || r.hasDollar(i) {
			r.backtick(i)
		}
		r.asName[i] = true
		return i, nil
	}
	if kw && !r.keywordIsName(i, pos) {
		r.keyword(i)
		return i, nil
	}
	r.asName[i] = true
	if pos == posOperand && !f.noPaths && !f.typeCtx {
		end, rewrote, err := r.path(i)
		if err != nil || rewrote {
			return end, err
		}
		if isDoubleQuoted(r.src, r.toks[i]) && !r.isPunct(i+1, ".") && !r.isPunct(i+1, "(") {
			r.loneQuoted[r.nameText(i)] = true
		}
	}
	if kw || isDoubleQuoted(r.src, r.toks[i]) || r.hasDollar(i) {
		r.backtick(i)
	}
	return i, nil
}

// hasDollar reports whether the plain name at toks[i] holds a '$'
// (isInnerDollar), which only a backticked name may hold for sqlparser.
func (r *nameRewriter) hasDollar(i int) bool {
	return r.toks[i].kind == tkIdent && strings.IndexByte(r.text(i), '$') >= 0
}

// keywordIsName decides whether the keyword at toks[i] is used as a name.
func (r *nameRewriter) keywordIsName(i int, pos position) bool {
	f := r.top()
	w := r.word(i)
	if f.typeCtx || hardKeywords[w] || r.isPunct(i+1, "(") {
		// A keyword before '(' is a function or a construct: VALUES(x), IN (…).
		return false
	}
	switch pos {
	case posOperand, posTable, posAlias:
		// Even END: where an operand starts it cannot close a CASE.
		return true
	case posAfterOperand:
		if w == "end" && f.cases > 0 {
			return false
		}
		// SELECT a Status FROM t: an implicit alias in the select list.
		next := r.word(i + 1)
		return f.clause == "select" && (i+1 == len(r.toks) || r.isPunct(i+1, ",") || next == "from")
	}
	return false
}

// keyword records what a keyword used as a keyword tells about the structure.
func (r *nameRewriter) keyword(i int) {
	f := r.top()
	if f.typeCtx {
		return
	}
	switch w := r.word(i); {
	case clauseKeywords[w]:
		f.clause = w
	case w == "join" || w == "straight_join" && f.clause != "select":
		f.clause = "from"
	case w == "case":
		f.cases++
	case w == "end":
		if f.cases > 0 {
			f.cases--
		}
	case w == "as" && f.opener == "cast", w == "using" && f.opener == "convert":
		f.typeCtx = true
	}
}

// backtick hands the name at toks[i] (a keyword used as a name, or a
// double-quoted name) to sqlparser in backticks.
func (r *nameRewriter) backtick(i int) {
	t := r.toks[i]
	r.quoted(t.start, t.end, r.nameText(i))
}

// quoted replaces src[start:end] with name in backticks. A backtick right
// next to it would merge with ours into an escaped backtick (two backticked
// names written back to back read as one name containing a backtick), so
// such a neighbour, or a double quote that becomes one, gets a blank in
// between.
func (r *nameRewriter) quoted(start, end int, name string) {
	text := backticked(name)
	if start > 0 && (r.src[start-1] == '`' || r.src[start-1] == '"') {
		text = " " + text
	}
	if end < len(r.src) && (r.src[end] == '`' || r.src[end] == '"') {
		text += " "
	}
	r.edits = append(r.edits, edit{start: start, end: end, text: text})
}

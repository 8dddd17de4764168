package repl

import (
	"fmt"
	"strings"

	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/plural"
)

// completionSeparators end the word that a suggestion replaces. '.', '-',
// '`' and '"' are not among them: a quoted table name is one word.
const completionSeparators = " \t(),;=<>!+*/%|"

// maxCompletions bounds one suggestion list.
const maxCompletions = 60

// suggestion is one completion: the text that replaces the word before the
// cursor, and a short description.
type suggestion struct {
	Text, Desc string
}

// completionSource is what completion knows about the database.
type completionSource interface {
	// TableNames lists the tables (possibly empty while loading).
	TableNames() []string
	// Tables returns the descriptions known (or loaded within a short wait).
	Tables(names []string) map[string]*planner.TableDef
	// Seen lists attribute names seen in this session's results.
	Seen(table string) []string
}

// completer suggests SQL keywords, functions, tables, attributes and
// indexes from the statement typed so far.
type completer struct {
	src       completionSource
	functions []string
}

// complete returns suggestions for the word before the cursor. before is
// the statement up to the cursor (earlier lines included) and whole is the
// complete statement text, where FROM may come after the cursor.
func (c *completer) complete(before, whole string) []suggestion {
	wordStart := strings.LastIndexAny(before, completionSeparators) + 1
	word := before[wordStart:]
	if insideLiteral(before) || strings.HasPrefix(word, "'") {
		return nil
	}
	prev := significant(lexSQL(before[:wordStart]))
	qual, partial := splitQualifier(word)
	var last token
	if len(prev) > 0 {
		last = prev[len(prev)-1]
	}
	switch {
	case isTableContext(prev):
		if qual != "" {
			return c.indexes(unquoteName(qual), partial, qual+".")
		}
		out := c.tables(word)
		if len(prev) == 1 && prev[0].is("explain") && word != "" {
			out = append(out, keywordsMatching(word)...)
		}
		return out
	case isIndexHint(prev):
		if refs := tableRefs(before[:wordStart]); len(refs) > 0 {
			return c.indexes(refs[len(refs)-1].Table, word, "")
		}
		return nil
	}
	refs := tableRefs(whole)
	if qual != "" {
		for _, r := range refs {
			if r.Alias == unquoteName(qual) || (r.Alias == "" && r.Table == unquoteName(qual)) {
				return c.attributes([]tableRef{r}, partial, qual+".")
			}
		}
		return nil
	}
	if word == "" {
		if !isOperandPosition(last) {
			return nil
		}
		return c.attributes(refs, "", "")
	}
	out := c.attributes(refs, word, "")
	if !strings.HasPrefix(word, `"`) {
		// An opened double quote starts a name, not a keyword.
		out = append(out, c.functionsMatching(word)...)
		out = append(out, keywordsMatching(word)...)
	}
	return clip(out)
}

// nameQuoter is how completion writes the names that replace word: in
// double quotes when the user opened one (they asked for a quoted name),
// otherwise bare wherever the parser reads the name back as itself.
func nameQuoter(word string, bare func(string) string) func(string) string {
	if strings.HasPrefix(word, `"`) {
		return doubleQuoted
	}
	return bare
}

// doubleQuoted writes name in double quotes, doubling any inside.
func doubleQuoted(name string) string {
	return `"` + strings.ReplaceAll(name, `"`, `""`) + `"`
}

// insideLiteral reports whether the text ends inside a string, a comment or
// a backticked name that cannot be completed (a closed one).
func insideLiteral(s string) bool {
	toks := lexSQL(s)
	if len(toks) == 0 {
		return false
	}
	t := toks[len(toks)-1]
	switch t.kind {
	case tString:
		return true
	case tComment:
		return t.open || t.text[0] != '/'
	}
	return false
}

// splitQualifier splits "a.b" into "a" and "b" at the last '.' outside
// quoted names; without a dot, qual is "".
func splitQualifier(word string) (qual, partial string) {
	var quote byte // the quote open at i, or 0
	dot := -1
	for i := 0; i < len(word); i++ {
		switch c := word[i]; {
		case c == '`' || c == '"':
			if quote == 0 {
				quote = c
			} else if quote == c {
				quote = 0 // a doubled quote closes and reopens: same result
			}
		case c == '.' && quote == 0:
			dot = i
		}
	}
	if dot <= 0 {
		return "", word
	}
	return word[:dot], word[dot+1:]
}

// isTableContext: right after FROM, JOIN, a comma in a FROM list,
// DESCRIBE/DESC/EXPLAIN at the start, or SHOW INDEXES FROM|IN.
func isTableContext(prev []token) bool {
	if len(prev) == 0 {
		return false
	}
	last := prev[len(prev)-1]
	switch {
	case last.is("from", "join"):
		return true
	case len(prev) == 1 && last.is("describe", "desc", "explain"):
		return true
	case len(prev) == 3 && prev[0].is("show") && last.is("in"):
		return true
	case last.punct(","):
		return clauseOf(prev) == "from"
	}
	return false
}

// clauseOf is the innermost clause keyword at the end of prev, at the
// current parenthesis depth.
func clauseOf(prev []token) string {
	depth := 0
	for i := len(prev) - 1; i >= 0; i-- {
		t := prev[i]
		switch {
		case t.punct(")"):
			depth++
		case t.punct("("):
			if depth == 0 {
				return "("
			}
			depth--
		case depth == 0 && t.is("select", "from", "where", "group", "order", "having", "limit", "on", "join"):
			return t.word()
		}
	}
	return ""
}

// isIndexHint: inside USE|FORCE|IGNORE INDEX|KEY ( …, after '(' or ','.
func isIndexHint(prev []token) bool {
	n := len(prev)
	if n == 0 || !(prev[n-1].punct("(") || prev[n-1].punct(",")) {
		return false
	}
	for i := n - 1; i >= 2; i-- {
		t := prev[i]
		if t.punct("(") {
			return prev[i-1].is("index", "key") && prev[i-2].is("use", "force", "ignore")
		}
		if !(t.punct(",") || isNameToken(t)) {
			return false
		}
	}
	return false
}

// isOperandPosition: an attribute name may start after this token.
func isOperandPosition(t token) bool {
	switch t.kind {
	case tIdent:
		return operandWords[t.word()]
	case tPunct:
		return operandPuncts[t.text]
	}
	return false
}

// tables suggests table names with their key schema.
func (c *completer) tables(word string) []suggestion {
	var names []string
	for _, n := range c.src.TableNames() {
		if matchName(n, word) {
			names = append(names, n)
		}
	}
	if len(names) > maxCompletions {
		names = names[:maxCompletions]
	}
	defs := c.src.Tables(names)
	out := make([]suggestion, 0, len(names))
	quote := nameQuoter(word, quoteTable)
	for _, n := range names {
		desc := "table"
		if d := defs[n]; d != nil {
			desc = keySchemaText(d)
		}
		out = append(out, suggestion{Text: quote(n), Desc: desc})
	}
	return out
}

// indexes suggests a table's indexes with their keys.
func (c *completer) indexes(table, word, prefix string) []suggestion {
	d := c.src.Tables([]string{table})[table]
	if d == nil {
		return nil
	}
	var out []suggestion
	quote := nameQuoter(word, quoteTable)
	for _, ix := range d.Indexes {
		if matchName(ix.Name, word) {
			out = append(out, suggestion{Text: prefix + quote(ix.Name), Desc: indexText(ix)})
		}
	}
	return out
}

// attributes suggests the attributes of the tables read: key attributes
// first, then index keys, then projected index attributes, then names seen
// in this session's results.
func (c *completer) attributes(refs []tableRef, word, prefix string) []suggestion {
	names := make([]string, 0, len(refs))
	for _, r := range refs {
		names = append(names, r.Table)
	}
	defs := c.src.Tables(names)
	var out []suggestion
	seen := map[string]bool{}
	quote := nameQuoter(word, quoteAttr)
	add := func(name, desc string) {
		if seen[name] || !matchName(name, word) {
			return
		}
		seen[name] = true
		out = append(out, suggestion{Text: prefix + quote(name), Desc: desc})
	}
	for _, r := range refs {
		if d := defs[r.Table]; d != nil {
			add(d.PK.Name, fmt.Sprintf("partition key (%s)", d.PK.Type))
			if d.SK != nil {
				add(d.SK.Name, fmt.Sprintf("sort key (%s)", d.SK.Type))
			}
		}
	}
	for _, r := range refs {
		if d := defs[r.Table]; d != nil {
			for _, ix := range d.Indexes {
				add(ix.PK.Name, fmt.Sprintf("%s partition key (%s)", ix.Name, ix.PK.Type))
				if ix.SK != nil {
					add(ix.SK.Name, fmt.Sprintf("%s sort key (%s)", ix.Name, ix.SK.Type))
				}
			}
		}
	}
	for _, r := range refs {
		if d := defs[r.Table]; d != nil {
			for _, ix := range d.Indexes {
				for _, a := range ix.Projection.NonKey {
					add(a, "projected in "+ix.Name)
				}
			}
		}
	}
	for _, r := range refs {
		for _, a := range c.src.Seen(r.Table) {
			add(a, "attribute")
		}
	}
	return out
}

func (c *completer) functionsMatching(word string) []suggestion {
	var out []suggestion
	lower := strings.ToLower(word)
	for _, f := range c.functions {
		if strings.HasPrefix(f, lower) {
			out = append(out, suggestion{Text: caseLike(f, word), Desc: "function"})
		}
	}
	return out
}

func keywordsMatching(word string) []suggestion {
	var out []suggestion
	upper := strings.ToUpper(word)
	for _, k := range sqlKeywords {
		if strings.HasPrefix(k, upper) && k != upper {
			out = append(out, suggestion{Text: caseLike(k, word), Desc: "keyword"})
		}
	}
	return out
}

// caseLike spells a keyword or function in the case the user is typing:
// lower case when the word typed so far is lower case, else upper case.
func caseLike(s, typed string) string {
	if typed != "" && typed == strings.ToLower(typed) {
		return strings.ToLower(s)
	}
	return strings.ToUpper(s)
}

// matchName reports whether name starts with the typed word, ignoring case
// and the quotes of a quoted name.
func matchName(name, word string) bool {
	w := unquoteName(word)
	return strings.HasPrefix(strings.ToLower(name), strings.ToLower(w))
}

func clip(s []suggestion) []suggestion {
	if len(s) > maxCompletions {
		return s[:maxCompletions]
	}
	return s
}

// keySchemaText describes a table for the completion menu, e.g.
// "PK (S) / SK (S) · 2 GSIs · 1 LSI".
func keySchemaText(d *planner.TableDef) string {
	s := fmt.Sprintf("%s (%s)", d.PK.Name, d.PK.Type)
	if d.SK != nil {
		s += fmt.Sprintf(" / %s (%s)", d.SK.Name, d.SK.Type)
	}
	gsi, lsi := 0, 0
	for _, ix := range d.Indexes {
		if ix.Global {
			gsi++
		} else {
			lsi++
		}
	}
	if gsi > 0 {
		s += " · " + plural.Of(gsi, "GSI")
	}
	if lsi > 0 {
		s += " · " + plural.Of(lsi, "LSI")
	}
	return s
}

// indexText describes an index, e.g. "GSI · GSI1PK (S) / GSI1SK (S) · ALL".
func indexText(ix planner.IndexDef) string {
	kind := "LSI"
	if ix.Global {
		kind = "GSI"
	}
	s := fmt.Sprintf("%s · %s (%s)", kind, ix.PK.Name, ix.PK.Type)
	if ix.SK != nil {
		s += fmt.Sprintf(" / %s (%s)", ix.SK.Name, ix.SK.Type)
	}
	return s + " · " + ix.Projection.Type
}

package parser

import (
	"github.com/xwb1989/sqlparser"
)

// selectModifiers may follow SELECT before the first select item.
var selectModifiers = setOf("distinct", "distinctrow", "all", "straight_join", "sql_cache",
	"sql_no_cache", "sql_calc_found_rows", "high_priority")

// selectListEnds end the select list at nesting level 0.
var selectListEnds = setOf("from", "where", "group", "having", "order", "limit", "into",
	"union", "for", "lock", "procedure", "window")

// selectItemTexts returns each select item as written in the original
// text, without its alias (and AS): what SQL engines name an unaliased
// output column after (SQLite and MySQL use the text as typed, not a
// normalised rendering). sig are the statement's significant tokens,
// starting at SELECT. It returns nil when the list it finds does not line
// up with the AST's items; callers then fall back to rendering the AST.
func selectItemTexts(src string, sig []token, sel *sqlparser.Select) []string {
	if len(sig) == 0 || lower(src[sig[0].start:sig[0].end]) != "select" {
		return nil
	}
	i := 1
	for i < len(sig) && sig[i].kind == tkIdent && selectModifiers[lower(src[sig[i].start:sig[i].end])] {
		i++
	}
	var items [][]token
	start, depth := i, 0
	for ; i < len(sig); i++ {
		t := sig[i]
		text := src[t.start:t.end]
		if t.kind == tkPunct {
			switch text {
			case "(", "[":
				depth++
			case ")", "]":
				depth--
			case ",":
				if depth == 0 {
					items = append(items, sig[start:i])
					start = i + 1
				}
			}
			if text == ";" {
				break
			}
			continue
		}
		if depth == 0 && t.kind == tkIdent && selectListEnds[lower(text)] {
			break
		}
	}
	items = append(items, sig[start:i])
	if len(items) != len(sel.SelectExprs) {
		return nil
	}
	out := make([]string, len(items))
	for k, toks := range items {
		if ae, ok := sel.SelectExprs[k].(*sqlparser.AliasedExpr); ok && !ae.As.IsEmpty() && len(toks) > 0 {
			toks = toks[:len(toks)-1] // the alias
			if n := len(toks); n > 0 && toks[n-1].kind == tkIdent && lower(src[toks[n-1].start:toks[n-1].end]) == "as" {
				toks = toks[:n-1]
			}
		}
		if len(toks) == 0 {
			return nil
		}
		out[k] = src[toks[0].start:toks[len(toks)-1].end]
	}
	return out
}

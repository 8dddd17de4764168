package parser

import (
	"strings"

	"github.com/xwb1989/sqlparser"
)

// isKeyword asks sqlparser's own tokenizer whether it reads word as a keyword.
// Asking it (rather than keeping a copy of its list) keeps us exact: a keyword
// is either rejected as a column name or, worse, accepted but lowercased
// (`Status` arrives as "status"), and DynamoDB names are case-sensitive.
func isKeyword(word string) bool {
	typ, _ := sqlparser.NewStringTokenizer(word).Scan()
	return typ != sqlparser.ID
}

// hardKeywords are the keywords that keep their SQL meaning in every position:
// they either start an expression (NOT, CASE, NULL, CAST…), glue one together
// (AND, BETWEEN, IS…) or start a clause. An attribute with one of these names
// must be written in backticks. Every other keyword is "soft": in a position
// where SQL expects a name (see rewriteNames) it is turned into a backticked
// name, so that `status`, `date`, `key`, `values`, `index`… just work.
var hardKeywords = setOf(
	"select", "from", "where", "group", "order", "by", "having", "limit", "union",
	"join", "inner", "outer", "cross", "natural", "straight_join", "on", "using",
	"as", "and", "or", "not", "in", "is", "like", "regexp", "rlike", "between",
	"escape", "case", "when", "then", "else", "distinct", "all", "into", "for",
	"exists", "null", "true", "false", "interval", "binary", "_binary", "div",
	"mod", "collate", "cast", "convert", "substr", "substring", "group_concat",
	"current_date", "current_time", "current_timestamp", "utc_date", "utc_time",
	"utc_timestamp", "localtime", "localtimestamp", "sql_cache", "sql_no_cache",
)

// operandKeywords are keywords after which an expression (so possibly a
// column name) starts.
var operandKeywords = setOf(
	"select", "distinct", "all", "straight_join", "sql_cache", "sql_no_cache",
	"where", "having", "by", "on", "and", "or", "not", "when", "then", "else",
	"case", "between", "like", "regexp", "rlike", "escape", "limit", "offset",
	"interval", "div", "mod",
	"set", // UPDATE t SET a = …: a target (maybe a document path) follows
)

// operandPuncts are operators and punctuation after which an expression starts.
var operandPuncts = setOf(
	",", "(", "=", "<", ">", "<=", ">=", "<>", "!=", "<=>", "+", "-", "*", "/",
	"%", "&", "|", "^", "~", "!", "&&", "||", "<<", ">>", "->", "->>",
)

// clauseKeywords change what a ',' separates at the current nesting level.
var clauseKeywords = setOf(
	"select", "from", "where", "group", "having", "order", "limit", "on", "using",
)

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

// lower is strings.ToLower for the ASCII names the lexer produces.
func lower(s string) string { return strings.ToLower(s) }

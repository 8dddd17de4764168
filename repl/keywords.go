package repl

// sqlKeywords are the keywords completion offers (upper case; offered in
// lower case when the user types in lower case).
var sqlKeywords = []string{
	"SELECT", "FROM", "WHERE", "AND", "OR", "NOT", "IN", "IS", "NULL", "BETWEEN", "LIKE",
	"AS", "DISTINCT", "ORDER", "GROUP", "BY", "HAVING", "LIMIT", "OFFSET", "ASC", "DESC",
	"JOIN", "INNER", "LEFT", "ON", "USE", "INDEX", "FORCE", "CASE", "WHEN", "THEN", "ELSE", "END",
	"EXISTS", "TRUE", "FALSE", "EXPLAIN", "DESCRIBE", "SHOW", "TABLES", "INDEXES",
}

// clauseWords end a table reference: after FROM t, one of these is not an
// alias.
var clauseWords = setOf("where", "use", "force", "ignore", "join", "left", "right", "inner", "cross",
	"outer", "full", "natural", "straight_join", "on", "using", "group", "order", "limit", "having",
	"union", "as", "select", "from")

// operandWords are words after which an attribute name may start.
var operandWords = setOf("select", "where", "and", "or", "not", "by", "on", "having", "distinct", "when", "then", "else", "between")

// operandPuncts are punctuation after which an attribute name may start.
var operandPuncts = setOf(",", "(", "=", "<", ">", "<=", ">=", "<>", "!=", "+", "-", "*", "/")

func setOf(words ...string) map[string]bool {
	m := make(map[string]bool, len(words))
	for _, w := range words {
		m[w] = true
	}
	return m
}

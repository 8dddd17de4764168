package repl

// tableRef is one table named in a statement's FROM or JOIN.
type tableRef struct {
	Table, Index, Alias string
}

// tableRefs finds the tables a statement reads: FROM t, FROM t AS a,
// FROM `t`.`index`, FROM a, b, JOIN t …, and DESCRIBE t / SHOW INDEXES FROM t.
func tableRefs(stmt string) []tableRef {
	toks := significant(lexSQL(stmt))
	var refs []tableRef
	for i := 0; i < len(toks); i++ {
		if !toks[i].is("from", "join") {
			continue
		}
		j := i + 1
		for {
			ref, next, ok := readRef(toks, j)
			if !ok {
				break
			}
			refs = append(refs, ref)
			j = next
			if j < len(toks) && toks[j].punct(",") {
				j++
				continue
			}
			break
		}
		i = j - 1
	}
	return refs
}

// readRef reads "name[.index] [[AS] alias]" at toks[i].
func readRef(toks []token, i int) (tableRef, int, bool) {
	if i >= len(toks) || !isNameToken(toks[i]) || toks[i].open {
		return tableRef{}, i, false
	}
	ref := tableRef{Table: toks[i].name()}
	i++
	if i+1 < len(toks) && toks[i].punct(".") && isNameToken(toks[i+1]) {
		ref.Index = toks[i+1].name()
		i += 2
	}
	if i < len(toks) && toks[i].is("as") {
		i++
	}
	if i < len(toks) && isNameToken(toks[i]) && !toks[i].open {
		ref.Alias = toks[i].name()
		i++
	}
	return ref, i, true
}

// isNameToken reports whether a token can be a table name or alias.
func isNameToken(t token) bool {
	switch t.kind {
	case tQuoted:
		return true
	case tIdent:
		return !clauseWords[t.word()]
	}
	return false
}

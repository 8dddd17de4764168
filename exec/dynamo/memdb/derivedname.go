package memdb

import "strings"

// A derived table is one a Loader creates with a '$' in its name (ddbsql's
// orders$changes: a view computed from other files). DynamoDB allows only
// [a-zA-Z0-9_.-] in table names, so no real table can clash with one; the
// name checks accept '$' only in the Loader's CreateTable and in requests
// that name a derived table that exists. Everything else keeps DynamoDB's
// validation exactly.

// derivedName reports whether name holds '$' and otherwise passes the
// checks, so only '$' is let through.
func derivedName(name string) (string, bool) {
	if strings.IndexByte(name, '$') < 0 {
		return name, false
	}
	return strings.ReplaceAll(name, "$", "_"), true
}

// checkTableName is checkName for a table name in a request, accepting a
// derived table that exists.
func (db *DB) checkTableName(c *constraintErrors, name, field string) {
	if checked, ok := derivedName(name); ok && db.hasTable(name) {
		name = checked
	}
	c.checkName(name, field)
}

func (db *DB) hasTable(name string) bool {
	db.mu.RLock()
	defer db.mu.RUnlock()
	return db.tables[name] != nil
}

//go:build linux

package repl_test

import "testing"

// testExplainJSON: after \format json, EXPLAIN prints its JSON document in
// the REPL; after \format table, the tree again.
func (e *replEnv) testExplainJSON(t *testing.T) {
	s := e.start(t, e.env(t))
	s.send("\\format json\r")
	s.expect("Output format is json.")
	s.expect(e.prompt())
	s.send(e.sql("EXPLAIN SELECT SK FROM {app} WHERE PK = 'WS#acme';\r"))
	s.expect(`"version": 1`)
	s.expect(`"kind": "Query"`)
	s.expect(`"KeyConditionExpression": "#0 = :0"`)
	s.expect(e.prompt())
	s.send("\\format table\r")
	s.expect("Output format is table.")
	s.expect(e.prompt())
	s.send(e.sql("EXPLAIN SELECT SK FROM {app} WHERE PK = 'WS#acme';\r"))
	s.expect("└─ Query ")
	s.expect(e.prompt())
	s.send("quit\r")
	if code := s.waitExit(); code != 0 {
		t.Fatalf("exit status %d", code)
	}
}

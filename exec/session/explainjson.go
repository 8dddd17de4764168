package session

import (
	"github.com/ddbsql/ddbsql/planner"
)

// scanOnlyNote is EXPLAIN's remark on a plan that needs --allow-scan to run.
const scanOnlyNote = "this plan reads a whole table or index with Scan; it runs only with --allow-scan"

// jsonDocuments reports whether EXPLAIN and DESCRIBE print one JSON
// document: with the json and ndjson formats, whose users read results as
// JSON. Every other format prints the text tree (EXPLAIN) or rows (DESCRIBE).
func (s *Session) jsonDocuments() bool { return s.cfg.Format == "json" || s.cfg.Format == "ndjson" }

// writeExplainJSON prints the plan as one JSON document: indented for json,
// on one line for ndjson.
func (s *Session) writeExplainJSON(p *planner.Plan, opts planner.JSONOptions) error {
	opts.Compact = s.cfg.Format == "ndjson"
	doc, err := planner.ExplainJSON(p, opts)
	if err != nil {
		return err
	}
	_, err = s.out.Write(doc)
	return err
}

package session

import (
	"context"
	"errors"
	"io"
	"time"

	"github.com/ddbsql/ddbsql/exec/engine"
	"github.com/ddbsql/ddbsql/parser"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
)

// runExplainDialect prints EXPLAIN ATHENA or EXPLAIN DUCKDB: the tables'
// DDL over their exports and the statement rewritten. It reads nothing
// but the catalog (DescribeTable, for the keys).
func (s *Session) runExplainDialect(ctx context.Context, e *parser.Explain) error {
	opts := s.planOptions()
	opts.Now = time.Now()
	d := s.cfg.Export
	d.Dialect = e.Dialect
	text, err := planner.ExplainDialect(ctx, s.catalog, e.Stmt, opts, d)
	if err != nil {
		var pe *diag.Error
		if errors.As(err, &pe) && pe.Phase == diag.Plan {
			return pe
		}
		return engine.DynamoError("DescribeTable", err)
	}
	_, err = io.WriteString(s.out, text)
	return err
}

package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/write"
	"github.com/ddbsql/ddbsql/parser/diag"
)

// runUndo is ddbsql --undo FILE [--statement N]: the journal's old images
// put back, each only where the item still holds the new image.
func runUndo(ctx context.Context, cfg *config, st streams) (int, error) {
	client, _, err := loadClient(ctx, cfg, st)
	if err != nil {
		return exitError, err
	}
	type undoClient interface {
		dynamo.Client
		dynamo.ItemWriter
	}
	c, ok := client.(undoClient)
	if !ok {
		return exitError, &diag.Error{Phase: diag.Connect, Code: diag.CodeConfig, Msg: "this backend cannot be written to"}
	}
	res, err := write.Undo(ctx, c, dynamo.NewCatalog(c), cfg.undo, cfg.statement)
	if res != nil {
		fmt.Fprintf(st.out, "undo of %s: %d items restored, %d conflicts\n", statementsText(res.Statements), len(res.Restored), len(res.Conflicts))
	}
	if err != nil {
		return exitError, err
	}
	if len(res.Conflicts) > 0 {
		n := min(len(res.Conflicts), write.SampleKeys)
		more := ""
		if len(res.Conflicts) > n {
			more = fmt.Sprintf("; and %d more", len(res.Conflicts)-n)
		}
		return exitError, &diag.Error{Phase: diag.Execute, Code: diag.CodePartialWrite,
			Msg:  fmt.Sprintf("%d items changed since the journaled statement and were left as they are: %s%s", len(res.Conflicts), strings.Join(res.Conflicts[:n], "; "), more),
			Hint: "look at them with SELECT; --undo never overwrites a change made after the statement"}
	}
	return exitOK, nil
}

func statementsText(ns []int) string {
	if len(ns) == 0 {
		return "no statements"
	}
	var s []string
	for _, n := range ns {
		s = append(s, fmt.Sprint(n))
	}
	if len(ns) == 1 {
		return "statement " + s[0]
	}
	return "statements " + strings.Join(s, ", ")
}

package duckdbtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// Timeout bounds one batch: Node's and DuckDB's start plus every statement.
var Timeout = 5 * time.Minute

// Query runs one statement and returns its rows.
func Query(t testing.TB, sql string) []map[string]any {
	t.Helper()
	return QueryAll(t, []string{sql})[0]
}

// QueryAll runs statements in order in one DuckDB (one process, one
// in-memory database, so a CREATE is seen by the statements after it) and
// returns the rows of each.
func QueryAll(t testing.TB, statements []string) [][]map[string]any {
	t.Helper()
	results, err := run(statements)
	if err != nil {
		t.Fatalf("duckdbtest: %v", err)
	}
	out := make([][]map[string]any, len(results))
	var failed []string
	for i, r := range results {
		if r.Error != nil {
			failed = append(failed, fmt.Sprintf("statement %d: %s\n  DuckDB: %s", i+1, statements[i], *r.Error))
			continue
		}
		out[i] = r.Rows
	}
	if len(failed) > 0 {
		t.Fatalf("duckdbtest: DuckDB rejected %d of %d statements:\n%s", len(failed), len(statements), strings.Join(failed, "\n"))
	}
	return out
}

// result is one statement's answer as batch.mjs prints it.
type result struct {
	Columns []string         `json:"columns"`
	Rows    []map[string]any `json:"rows"`
	Error   *string          `json:"error"`
}

// run executes statements in one node process. Its error says what to
// install when the runtime is missing; per-statement errors are in the
// results.
func run(statements []string) ([]result, error) {
	peers, err := peersDir()
	if err != nil {
		return nil, err
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, errors.New("node not found on PATH: install Node.js (>= 20) and npm, then run scripts/test.sh (or npm ci --prefix testdata/peers --ignore-scripts)")
	}
	if _, err := os.Stat(filepath.Join(peers, "node_modules", "@duckdb", "node-api", "package.json")); err != nil {
		return nil, fmt.Errorf("DuckDB's Node API is not installed in %s: run `npm ci --prefix testdata/peers --ignore-scripts --no-audit --no-fund` from the repository root (scripts/test.sh does it)", peers)
	}
	in, err := json.Marshal(statements)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, filepath.Join(peers, "batch.mjs"))
	cmd.Dir = peers
	cmd.Stdin = bytes.NewReader(in)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		if ctx.Err() != nil {
			return nil, fmt.Errorf("DuckDB did not answer %d statements within %v", len(statements), Timeout)
		}
		return nil, fmt.Errorf("node batch.mjs: %v\n%s", err, stderr.String())
	}
	dec := json.NewDecoder(&stdout)
	dec.UseNumber()
	var results []result
	if err := dec.Decode(&results); err != nil {
		return nil, fmt.Errorf("node batch.mjs printed no JSON answer (%v); stderr:\n%s", err, stderr.String())
	}
	if len(results) != len(statements) {
		return nil, fmt.Errorf("node batch.mjs answered %d of %d statements", len(results), len(statements))
	}
	return results, nil
}

// peersDir is testdata/peers of the repository holding this file.
func peersDir() (string, error) {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return "", errors.New("cannot locate the duckdbtest source to find testdata/peers")
	}
	dir := filepath.Join(filepath.Dir(file), "..", "..", "testdata", "peers")
	if _, err := os.Stat(filepath.Join(dir, "batch.mjs")); err != nil {
		return "", fmt.Errorf("testdata/peers/batch.mjs not found beside the module (%v)", err)
	}
	return dir, nil
}

package main

import (
	"os"
	"testing"
)

// TestMain runs the command-line tests without a settings file: they run
// the command in-process, so a config.toml in the home directory of
// whoever runs them would otherwise change their results. Tests of the
// settings file name theirs with --config or DDBSQL_CONFIG.
func TestMain(m *testing.M) {
	os.Setenv("DDBSQL_CONFIG", "")
	os.Exit(m.Run())
}

package main

import (
	"os"
	"strconv"
	"testing"
)

// TestMain runs the command-line tests without a settings file: they run
// the command in-process, so a config.toml in the home directory of
// whoever runs them would otherwise change their results. Tests of the
// settings file name theirs with --config or DDBSQL_CONFIG.
//
// With DDBSQL_TEST_AS_MAIN=1 the test binary is the command instead (a
// test runs it as a child process, which it may kill), with
// DDBSQL_TEST_EXPORT_UNIT_ROWS and DDBSQL_TEST_EXPORT_KILL_AFTER setting a
// partitioned export's unit size and the unit after which the process
// kills itself.
func TestMain(m *testing.M) {
	os.Setenv("DDBSQL_CONFIG", "")
	if os.Getenv("DDBSQL_TEST_AS_MAIN") == "1" {
		exportUnitRows, _ = strconv.ParseInt(os.Getenv("DDBSQL_TEST_EXPORT_UNIT_ROWS"), 10, 64)
		if n, err := strconv.Atoi(os.Getenv("DDBSQL_TEST_EXPORT_KILL_AFTER")); err == nil {
			exportCheckpointed = func(units int) error {
				if units == n {
					killSelf()
				}
				return nil
			}
		}
		main()
	}
	os.Exit(m.Run())
}

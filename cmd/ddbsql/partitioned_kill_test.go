//go:build unix

package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// killSelf ends the process as kill -9 does: no deferred call, no clean-up.
func killSelf() { _ = syscall.Kill(os.Getpid(), syscall.SIGKILL) }

// TestPartitionedKilled: a process killed (SIGKILL) after it recorded 3
// units of 40 rows is continued by the same command, and the layout then
// equals, byte for byte, that of a run that was never stopped.
func TestPartitionedKilled(t *testing.T) {
	items := writeItemsFile(t, partItems(250))
	args := []string{"--data", "tbl=" + items, "--key", "id", "--allow-scan", "--format", "parquet", "--partition-by", "grp,cat", "-e", "SELECT * FROM tbl"}
	exportUnitRows = 40
	t.Cleanup(func() { exportUnitRows = 0 })
	whole := filepath.Join(t.TempDir(), "whole")
	if r := invoke(append(args, "-o", whole), ""); r.code != 0 {
		t.Fatal(r.err)
	}
	want := layoutBytes(t, whole)

	dir := filepath.Join(t.TempDir(), "killed")
	cmd := exec.Command(os.Args[0], append(args, "-o", dir)...)
	cmd.Env = append(os.Environ(), "DDBSQL_TEST_AS_MAIN=1", "DDBSQL_TEST_EXPORT_UNIT_ROWS=40", "DDBSQL_TEST_EXPORT_KILL_AFTER=3")
	out, err := cmd.CombinedOutput()
	ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if err == nil || !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("the child was not killed: %v\n%s", err, out)
	}
	st := readState(t, dir)
	if st.Complete || st.Units != 3 || st.Rows != 120 {
		t.Fatalf("after the kill: complete %v, %d units, %d rows", st.Complete, st.Units, st.Rows)
	}
	r := invoke(append(args, "-o", dir), "")
	if r.code != 0 || !strings.Contains(r.err, "120 rows in") {
		t.Fatalf("resumed: exit %d: %s", r.code, r.err)
	}
	sameLayout(t, layoutBytes(t, dir), want)
	if st := readState(t, dir); !st.Complete || st.Rows != 250 {
		t.Errorf("resumed state: complete %v, %d rows", st.Complete, st.Rows)
	}
}

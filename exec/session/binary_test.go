package session_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/format"
	"github.com/ddbsql/ddbsql/exec/session"
)

// failingQueries answers every Query with an error.
type failingQueries struct{ dynamo.Client }

var errQueryFailed = errors.New("the read failed")

func (failingQueries) Query(context.Context, *dynamodb.QueryInput, ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	return nil, errQueryFailed
}

// openSpools counts this process's open files in dir (the spool is
// unlinked at once, so its name no longer shows in the directory).
func openSpools(t *testing.T, dir string) int {
	t.Helper()
	fds, err := os.ReadDir("/proc/self/fd")
	if err != nil {
		t.Skip("no /proc/self/fd")
	}
	n := 0
	for _, fd := range fds {
		if target, err := os.Readlink(filepath.Join("/proc/self/fd", fd.Name())); err == nil && strings.HasPrefix(target, dir) {
			n++
		}
	}
	return n
}

// TestBinaryResultAbandoned: a statement that fails after its parquet or
// arrow result began releases the spool and writes nothing to its file.
func TestBinaryResultAbandoned(t *testing.T) {
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	for _, f := range []string{"parquet", "arrow"} {
		path := filepath.Join(t.TempDir(), "out."+f)
		d, err := format.CreateDestination(path)
		if err != nil {
			t.Fatal(err)
		}
		var errOut strings.Builder
		s := session.New(failingQueries{memClient(t)}, d, &errOut, session.DefaultConfig())
		if err := s.SetFormat(f); err != nil {
			t.Fatal(err)
		}
		err = s.RunScript(context.Background(), "SELECT * FROM uniform WHERE PK = 'P#1'")
		if !errors.Is(err, errQueryFailed) {
			t.Fatalf("%s: error %v, want the read's failure", f, err)
		}
		d.Close()
		if n := openSpools(t, tmp); n != 0 {
			t.Errorf("%s: %d spool files still open", f, n)
		}
		if st, err := os.Stat(path); err != nil || st.Size() != 0 {
			t.Errorf("%s: the file: %v, %v; want it empty", f, st, err)
		}
	}
}

package difftest

import (
	"os"
	"strconv"
	"sync"
	"testing"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/dynamo/dynalitetest"
	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
)

// envBackend chooses what the generated statements run against:
// "dynalite" (the default: the real SDK against the test server) or
// "memdb" (the in-process backend, which follows DynamoDB where dynalite
// does not — fast, for large runs).
const envBackend = "DDBSQL_DIFFTEST_BACKEND"

// backend is where a differential test loads its tables and sends its reads.
type backend struct {
	name   string
	client interface {
		dynamo.Client
		dynamo.Writer
	}
	prefix string
}

var (
	memOnce sync.Once
	memDB   *memdb.DB
	memSeq  int
	memMu   sync.Mutex
)

// newBackend returns the backend envBackend names, with a table-name
// prefix of its own.
func newBackend(t testing.TB) backend {
	t.Helper()
	switch b := os.Getenv(envBackend); b {
	case "", "dynalite":
		return backend{name: "dynalite", client: dynalitetest.Client(t), prefix: dynalitetest.Prefix(t)}
	case "memdb":
		memOnce.Do(func() { memDB = memdb.New() })
		memMu.Lock()
		memSeq++
		n := memSeq
		memMu.Unlock()
		return backend{name: "memdb", client: memDB, prefix: "mem" + strconv.Itoa(n) + "."}
	default:
		t.Fatalf("%s=%q: want dynalite or memdb", envBackend, b)
	}
	panic("unreachable")
}

package session_test

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"hash/fnv"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"

	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/exec/dynamo/offline"
	"github.com/ddbsql/ddbsql/exec/engine"
	"github.com/ddbsql/ddbsql/exec/format"
	"github.com/ddbsql/ddbsql/exec/memtest"
	"github.com/ddbsql/ddbsql/exec/session"
	"github.com/ddbsql/ddbsql/parser"
	"github.com/ddbsql/ddbsql/parser/diag"
)

// FuzzStatements runs SQL text through the whole statement path — parse,
// plan, execute, format — on the in-process backend holding the demo
// tables, with Scans allowed. Whatever the text, the statement must end
// with its result or a typed error: the target fails on any panic, on an
// internal error (a panic some recover turned into one), on a statement
// that outlives its --timeout (a hang), and on Arrow memory left
// allocated. Planner options, format and statistics vary with the input,
// so every path is reached. Work per input is bounded: a one-second
// --timeout and a cap on the output.
//
// Seeds: every statement of the README, the inputs of the golden plan
// files, the parser's fuzz corpus, statements generated over the demo
// tables, and the crashers found so far (testdata/fuzz/FuzzStatements).
// Without -fuzz, go test runs the seeds.
func FuzzStatements(f *testing.F) {
	for _, seed := range statementSeeds(f) {
		f.Add(seed)
	}
	db := fuzzDemo(f)
	f.Fuzz(func(t *testing.T, sql string) {
		runFuzzStatement(t, db, sql)
	})
}

const (
	fuzzTimeout   = time.Second
	fuzzHangAfter = 20 * time.Second // past the timeout: nothing is bounding the statement
	fuzzOutputCap = 1 << 20
)

var (
	fuzzDB     *memdb.DB
	fuzzDBErr  error
	fuzzDBOnce sync.Once
)

// fuzzDemo loads the demo tables once per process (the fuzzing workers
// each run one).
func fuzzDemo(tb testing.TB) *memdb.DB {
	fuzzDBOnce.Do(func() {
		fuzzDB = memdb.New()
		_, fuzzDBErr = offline.LoadDemo(context.Background(), fuzzDB)
	})
	if fuzzDBErr != nil {
		tb.Fatalf("loading the demo tables: %v", fuzzDBErr)
	}
	return fuzzDB
}

func runFuzzStatement(t *testing.T, db *memdb.DB, sql string) {
	h := fnv.New64a()
	h.Write([]byte(sql))
	bits := h.Sum64()
	mem := memory.NewCheckedAllocator(memtest.Poisoning(memory.NewGoAllocator()))
	out := &cappedWriter{limit: fuzzOutputCap}
	var errOut cappedWriter
	errOut.limit = fuzzOutputCap
	cfg := session.DefaultConfig()
	cfg.Mem = mem
	cfg.Timeout = fuzzTimeout
	cfg.Plan.AllowScan = true
	cfg.Plan.Segments = []int{0, 1, 3}[bits%3]
	cfg.Plan.Strict = bits>>2&7 == 0
	cfg.Plan.Consistent = bits>>5&7 == 0
	cfg.Format = format.Names()[bits>>8%uint64(len(format.Names()))]
	cfg.Stats = []session.StatsMode{session.StatsOff, session.StatsText, session.StatsJSON}[bits>>16%3]
	cfg.Concurrency = 1 + int(bits>>20%4)
	if bits>>24&15 == 0 {
		cfg.MaxRCU = 2
	}
	s := session.New(db, out, &errOut, cfg)

	done := make(chan error, 1)
	go func() { done <- s.RunScript(context.Background(), sql) }()
	var err error
	select {
	case err = <-done:
	case <-time.After(fuzzTimeout + fuzzHangAfter):
		buf := make([]byte, 1<<20)
		n := runtime.Stack(buf, true)
		t.Fatalf("the statement still runs %v after its --timeout of %v:\n%s", fuzzHangAfter, fuzzTimeout, buf[:n])
	}
	if bad := internalFailure(err); bad != "" {
		stack := engine.PanicStack(err)
		t.Fatalf("%s: %v\n%s", bad, err, stack)
	}
	if n := mem.CurrentAlloc(); n != 0 {
		t.Fatalf("%d bytes of Arrow memory left allocated (error: %v)", n, err)
	}
}

// internalFailure says why err reveals a bug rather than bad input, or "".
func internalFailure(err error) string {
	if err == nil {
		return ""
	}
	var ee *diag.Error
	if errors.As(err, &ee) && ee.Code == diag.CodeInternal {
		return "internal error"
	}
	var pe *diag.Error
	if errors.As(err, &pe) && pe.Phase == diag.Parse && (strings.Contains(pe.Msg, "internal parser error") || strings.Contains(pe.Msg, "the SQL parser failed")) {
		return "the parser panicked"
	}
	if strings.Contains(err.Error(), "cannot decode value") {
		return "a value could not be decoded for output"
	}
	return ""
}

// cappedWriter takes at most limit bytes, then fails every write: it
// bounds the work of a statement with a huge result.
type cappedWriter struct {
	bytes.Buffer
	limit int
}

var errOutputCap = errors.New("output cap reached")

func (w *cappedWriter) Write(b []byte) (int, error) {
	if w.Len()+len(b) > w.limit {
		return 0, errOutputCap
	}
	return w.Buffer.Write(b)
}

// statementSeeds gathers the seed corpus from the repository.
func statementSeeds(tb testing.TB) []string {
	root := filepath.Join("..", "..")
	var seeds []string
	seeds = append(seeds, readmeStatements(tb, filepath.Join(root, "README.md"))...)
	golden, err := filepath.Glob(filepath.Join(root, "planner", "testdata", "plans", "*.txt"))
	if err != nil || len(golden) == 0 {
		tb.Fatalf("no golden plan files: %v", err)
	}
	for _, file := range golden {
		seeds = append(seeds, goldenInputs(tb, file)...)
	}
	corpus, err := filepath.Glob(filepath.Join(root, "parser", "testdata", "fuzz", "FuzzParse", "*"))
	if err != nil || len(corpus) == 0 {
		tb.Fatalf("no parser fuzz corpus: %v", err)
	}
	for _, file := range corpus {
		seeds = append(seeds, corpusStrings(tb, file)...)
	}
	// Valid statements over the demo tables, for the mutations to start
	// from (FuzzGeneratedStatements builds them).
	for _, b := range generatorSeeds(100) {
		seeds = append(seeds, generateStatement(b))
	}
	return seeds
}

var dashE = regexp.MustCompile(`-e "([^"]*)"`)

// readmeStatements returns the README's SQL blocks (each whole, as a
// script, and statement by statement) and the statements after -e.
func readmeStatements(tb testing.TB, path string) []string {
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	inSQL := false
	var block strings.Builder
	for _, line := range strings.Split(string(data), "\n") {
		switch {
		case strings.HasPrefix(line, "```sql"):
			inSQL = true
			block.Reset()
		case inSQL && strings.HasPrefix(line, "```"):
			inSQL = false
			out = append(out, block.String())
			for _, p := range parser.Split(block.String()) {
				out = append(out, p.Text)
			}
		case inSQL:
			block.WriteString(line + "\n")
		}
		for _, m := range dashE.FindAllStringSubmatch(line, -1) {
			out = append(out, m[1])
		}
	}
	if len(out) < 10 {
		tb.Fatalf("found only %d statements in %s", len(out), path)
	}
	return out
}

// goldenInputs returns the SQL of every case of a datadriven file: the
// lines between a command and its "----".
func goldenInputs(tb testing.TB, path string) []string {
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	var input []string
	state := "between" // between cases, in an input, in an output
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		switch state {
		case "between":
			if cmd, _, _ := strings.Cut(line, " "); cmd == "plan" || cmd == "error" || cmd == "same" || cmd == "json" {
				state, input = "input", nil
			}
		case "input":
			if line == "----" {
				out = append(out, strings.Join(input, "\n"))
				state = "output"
				continue
			}
			input = append(input, line)
		case "output":
			if line == "" {
				state = "between"
			}
		}
	}
	if len(out) == 0 {
		tb.Fatalf("no cases in %s", path)
	}
	return out
}

// corpusStrings decodes a file of Go's fuzzing corpus format.
func corpusStrings(tb testing.TB, path string) []string {
	data, err := os.ReadFile(path)
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(string(data), "\n")[1:] {
		if lit, ok := strings.CutPrefix(line, "string("); ok {
			s, err := strconv.Unquote(strings.TrimSuffix(lit, ")"))
			if err != nil {
				tb.Fatalf("%s: %v", path, err)
			}
			out = append(out, s)
		}
	}
	return out
}

package session

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/dynamo/rawpage"
	"github.com/ddbsql/ddbsql/exec/engine"
	"github.com/ddbsql/ddbsql/exec/format"
	"github.com/ddbsql/ddbsql/exec/spill"
	"github.com/ddbsql/ddbsql/exec/write"
	"github.com/ddbsql/ddbsql/parser"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
)

// StatsMode is how statement statistics are reported.
type StatsMode string

// Stats modes.
const (
	StatsOff  StatsMode = "off"
	StatsText StatsMode = "text"
	StatsJSON StatsMode = "json"
)

// Session holds the settings and connections statements run with. Its
// fields are its own: it is made with New, changed between statements with
// the setters (settings.go) and read back with Settings.
type Session struct {
	client  dynamo.Client
	catalog *dynamo.Catalog
	// cfg is the current settings: those New was given, as the setters
	// changed them since. Its Mem is never nil.
	cfg Config
	// out receives the results, errOut the statistics (SetOutput,
	// SetMessages).
	out    io.Writer
	errOut io.Writer
	// notes, when set, receives the notes on how a statement was read
	// (planner.Plan.Notes) instead of errOut: notes must always be seen,
	// whether or not the statistics are.
	notes io.Writer

	// limiter paces every statement of the session at cfg.RateLimit: a
	// statement's last response is paid by the next statement's first
	// request, so a script of many statements holds the rate too.
	limiter     *engine.RateLimiter
	limiterRate float64
	// statsSink, when set, receives each statement's statistics instead of
	// errOut (SetStatsSink).
	statsSink func(StatementStats)
	// warnedInMemory: the note that in-memory tables' changes end with
	// the process was shown (once per session).
	warnedInMemory bool
	// notedJournal is the journal file the session last named in a note.
	notedJournal string
	// writer is the client New was given, for write statements (nil when
	// it cannot write); WrapClient wraps reads only. inMemory: it says its
	// tables live in memory (the --demo and --data backend).
	writer   dynamo.ItemWriter
	inMemory bool
	// beforeWrite, when set (tests), runs before each item's write.
	beforeWrite func(ctx context.Context, key map[string]types.AttributeValue)
}

// DefaultReadPrice is DynamoDB's on-demand price per million read request
// units in us-east-1.
const DefaultReadPrice = 0.125

// Config is what a session is made with: the settings cmd/ddbsql takes
// from its flags, and the hooks of a caller that embeds the session (the
// REPL's scan question). DefaultConfig gives the settings of a session made
// without flags; Settings gives a session's current ones.
type Config struct {
	// Format names the output format (table, csv, json…; --format).
	Format string
	// Stats is how statement statistics are reported (--stats).
	Stats StatsMode
	// Plan are the planner options (--allow-scan, --consistent, --strict,
	// --segments); a Parallelism of 0 is the host's CPU count.
	Plan planner.Options
	// TableNotes, by table name, are remarks EXPLAIN adds for the tables
	// a plan reads (which point in time an offline table shows).
	TableNotes map[string]string
	// FormatOptions are the output options (expanded display…).
	FormatOptions format.Options
	// MaxRCU, when positive, refuses statements estimated to consume more
	// read capacity and stops those that do while running (--max-rcu).
	MaxRCU float64
	// RateLimit, when positive, paces each statement's reads to that many
	// capacity units per second (--rate-limit).
	RateLimit float64
	// Timeout, when positive, bounds each statement (--timeout): parsing,
	// planning with its DescribeTable and ListTables calls, and every read.
	Timeout time.Duration
	// ReadPrice is the on-demand price in USD per million read units, for
	// the cost shown with the statistics (--read-price).
	ReadPrice float64
	// Concurrency bounds DynamoDB requests in flight per statement
	// (--concurrency; 0: the engine's default).
	Concurrency int
	// Progress, when set (stderr is a terminal), shows a progress line for
	// statements running longer than a second. It is erased before the
	// first byte of the statement's output unless OutRedirected, which
	// says that the output does not go to that terminal (stdout goes to a
	// file or a pipe): output then leaves the progress line alone.
	Progress      io.Writer
	OutRedirected bool
	// Raw, when set, decodes Query/Scan pages straight into Arrow
	// (engine.Env.Raw).
	Raw rawpage.Reader
	// Mem allocates the statements' Arrow memory (nil:
	// memory.DefaultAllocator).
	Mem memory.Allocator
	// MemoryLimit, when positive, is what each statement's blocking
	// operators (ORDER BY, GROUP BY, DISTINCT, the hash-join build) may
	// retain before they spill to TempDir (--memory-limit; 0: no limit).
	MemoryLimit int64
	// SteerCollector, when set, points the Go runtime's soft memory limit
	// at each statement's MemoryLimit before it runs
	// (spill.SteerCollector), so the process's memory follows the limit
	// and not twice it. It is process-wide: the command line sets it, a
	// program embedding several sessions should not.
	SteerCollector bool
	// TempDir is where statements make their spill directories
	// (--temp-dir; "": the system's temporary directory).
	TempDir string
	// DryRun runs the reads of write statements and reports the items
	// they would change and the WCU, writing nothing (--dry-run).
	DryRun bool
	// MaxWCU, when positive, refuses write statements whose computed cost
	// exceeds it and stops those whose consumed WCU passes it (--max-wcu).
	MaxWCU float64
	// ReadOnly refuses every write statement (--read-only).
	ReadOnly bool
	// Journal, when set, is the file every write statement records the
	// old and new image of each item it changes in (--journal).
	Journal string
	// ConfirmWrite, when set, is asked before a write statement that
	// changes more than one item sends its first write, with the count
	// and WCU (the REPL asks the user); false writes nothing.
	ConfirmWrite func(ctx context.Context, c write.Confirmation) bool
	// ConfirmScan, when set, is asked before a statement that needs a Scan
	// the options do not allow (the REPL asks the user); true plans it again
	// with Scans allowed, for this statement only.
	ConfirmScan func(ctx context.Context, scan planner.ScanEstimate) bool
	// ResultWriter, when set, makes the writer of every result in place
	// of the Format's (a partitioned Parquet export writes a directory,
	// not a stream); it is given the writer options the session would use.
	ResultWriter func(opt format.Options) (format.Writer, error)
	// Export says where EXPLAIN ATHENA and EXPLAIN DUCKDB find the tables'
	// exports (--export-location, --athena-source, --decimal-scale); its
	// Dialect is set per statement.
	Export planner.DialectOptions
}

// DefaultConfig is the configuration of a session made without flags:
// table output, no statistics, DefaultReadPrice.
func DefaultConfig() Config {
	return Config{Format: "table", Stats: StatsOff, ReadPrice: DefaultReadPrice}
}

// New makes a session over a client, writing results to out and
// statistics and notes to errOut, with the settings of cfg. An empty
// Format is table and an empty Stats is off.
func New(client dynamo.Client, out, errOut io.Writer, cfg Config) *Session {
	if cfg.Format == "" {
		cfg.Format = "table"
	}
	if cfg.Stats == "" {
		cfg.Stats = StatsOff
	}
	if cfg.Mem == nil {
		cfg.Mem = memory.DefaultAllocator
	}
	s := &Session{client: client, catalog: dynamo.NewCatalog(client), cfg: cfg, out: out, errOut: errOut}
	s.writer, _ = client.(dynamo.ItemWriter)
	s.inMemory = isInMemory(client)
	return s
}

// RunScript parses every statement in text, then runs them in order,
// stopping at the first failure.
func (s *Session) RunScript(ctx context.Context, text string) error {
	return s.RunScripts(ctx, []string{text})
}

// RunScripts parses every script completely (error positions are relative
// to each script), then runs all statements in order, stopping at the first
// failure. Nothing runs when any script has a syntax error.
func (s *Session) RunScripts(ctx context.Context, scripts []string) error {
	// Parsing works on text already in memory and does no I/O, so it cannot
	// wait on anything; its time still counts against the first
	// statement's --timeout, whose clock starts here.
	start := time.Now()
	var stmts []parser.Statement
	for _, text := range scripts {
		parsed, err := parser.Parse(text)
		if err != nil {
			return err
		}
		stmts = append(stmts, parsed...)
	}
	return s.runParsed(ctx, stmts, start)
}

// runParsed runs parsed statements in order, stopping at the first
// failure; the first statement's clock started at start (parsing counts
// against its --timeout), every later one's when it begins.
func (s *Session) runParsed(ctx context.Context, stmts []parser.Statement, start time.Time) error {
	for i, st := range stmts {
		if i > 0 {
			start = time.Now()
		}
		if err := s.run(ctx, st, start); err != nil {
			return err
		}
	}
	return nil
}

// Run executes one statement under its --timeout. A panic is turned into
// an internal error so the user never sees a stack trace.
func (s *Session) Run(ctx context.Context, st parser.Statement) error {
	return s.run(ctx, st, time.Now())
}

// run executes one statement whose --timeout clock started at start.
func (s *Session) run(ctx context.Context, st parser.Statement, start time.Time) (err error) {
	ctx, end := s.begin(ctx, start)
	defer end()
	defer func() {
		if r := recover(); r != nil {
			err = engine.PanicError(r)
		}
		if stack := engine.PanicStack(err); stack != nil && debugPanics && s.errOut != nil {
			fmt.Fprintf(s.errOut, "%s\n", stack)
		}
	}()
	return s.timedOut(ctx, s.dispatch(ctx, st))
}

// dispatch runs a statement by kind.
func (s *Session) dispatch(ctx context.Context, st parser.Statement) error {
	switch t := st.(type) {
	case *parser.Select:
		return s.runSelect(ctx, t)
	case *parser.Explain:
		if t.Write != nil {
			if err := s.textOnly("EXPLAIN"); err != nil {
				return err
			}
			return s.runExplainWrite(ctx, t.Write)
		}
		return s.runExplain(ctx, t)
	case *parser.Insert, *parser.Update, *parser.Delete:
		return s.runWrite(ctx, st)
	case *parser.ShowTables:
		return s.showTables(ctx)
	case *parser.Describe:
		return s.describe(ctx, t.Table)
	case *parser.ShowIndexes:
		return s.showIndexes(ctx, t.Table)
	}
	return fmt.Errorf("unsupported statement %T", st)
}

// debugPanics prints the stacks of panics, on this goroutine or a worker's,
// when DDBSQL_DEBUG is set (for whoever investigates a report).
var debugPanics = os.Getenv("DDBSQL_DEBUG") != ""

// plan compiles a SELECT; catalog failures become exec errors.
func (s *Session) plan(ctx context.Context, sel *parser.Select) (*planner.Plan, error) {
	opts := s.planOptions()
	// now() and current_date: one instant for the whole statement.
	opts.Now = time.Now()
	p, err := planner.PlanStatement(ctx, s.catalog, sel, opts)
	if err != nil {
		var pe *diag.Error
		if errors.As(err, &pe) && pe.Phase == diag.Plan {
			var need *planner.ScanNeeded
			if errors.As(pe.Cause, &need) && s.cfg.ConfirmScan != nil {
				// The notes may change the answer (PK = "x" compares with
				// an attribute named x): show them with the question.
				s.printNotes(need.Notes)
				if !s.confirmScan(ctx, need.Estimate) {
					return nil, pe
				}
				opts.AllowScan = true
				p, err := planner.PlanStatement(ctx, s.catalog, sel, opts)
				if p != nil {
					p.Notes = nil // shown already
				}
				return p, err
			}
			return nil, pe
		}
		return nil, engine.DynamoError("DescribeTable", err)
	}
	return p, nil
}

// planOptions are the planner options statements plan with: the session's,
// with the host's CPU count as the parallelism unless one was set.
func (s *Session) planOptions() planner.Options {
	opts := s.cfg.Plan
	if opts.Parallelism <= 0 {
		opts.Parallelism = runtime.NumCPU()
	}
	return opts
}

// confirmScan asks the user with the statement's --timeout paused: the
// time it takes to answer is not the statement's.
func (s *Session) confirmScan(ctx context.Context, scan planner.ScanEstimate) bool {
	if st := statementOf(ctx); st != nil {
		defer st.clock.pause()()
	}
	return s.cfg.ConfirmScan(ctx, scan)
}

// env is a statement's environment, with a fresh memory budget and spill
// directory of its own: the caller closes env.Spill when the statement
// ends, however it ends (a deferred call, so a panic removes it too).
func (s *Session) env(stats *engine.Stats) *engine.Env {
	env := &engine.Env{Client: s.client, Mem: s.cfg.Mem, Stats: stats, Concurrency: s.cfg.Concurrency, Budget: s.cfg.MaxRCU}
	env.Memory = spill.NewBudget(s.cfg.MemoryLimit)
	if s.cfg.SteerCollector {
		spill.SteerCollector(env.Memory)
	}
	env.Spill = spill.NewDir(s.cfg.TempDir)
	env.Raw = s.cfg.Raw
	if s.cfg.RateLimit > 0 {
		if s.limiter == nil || s.limiterRate != s.cfg.RateLimit {
			s.limiter, s.limiterRate = engine.NewRateLimiter(s.cfg.RateLimit), s.cfg.RateLimit
		}
		env.Limiter = s.limiter
	}
	return env
}

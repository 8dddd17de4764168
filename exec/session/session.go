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

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/dynamo/rawpage"
	"github.com/ddbsql/ddbsql/exec/engine"
	"github.com/ddbsql/ddbsql/exec/format"
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

// Session holds the settings and connections statements run with.
type Session struct {
	Client        dynamo.Client
	Catalog       *dynamo.Catalog
	Options       planner.Options
	Format        string
	Stats         StatsMode
	FormatOptions format.Options
	out           io.Writer
	errOut        io.Writer
	Mem           memory.Allocator
	// out receives the results, errOut the statistics (SetOutput,
	// SetMessages).
	// notes, when set, receives the notes on how a statement was read
	// (planner.Plan.Notes) instead of errOut: notes must always be seen,
	// whether or not the statistics are.
	notes io.Writer
	// Concurrency bounds DynamoDB requests in flight per statement.
	Concurrency int
	// ConfirmScan, when set, is asked before a statement that needs a Scan
	// the options do not allow (the REPL asks the user); true plans it again
	// with Scans allowed, for this statement only.
	ConfirmScan func(ctx context.Context, scan planner.ScanEstimate) bool
	// MaxRCU, when positive, refuses statements estimated to consume more
	// read capacity and stops those that do while running (--max-rcu).
	MaxRCU float64
	// rateLimit, when positive, paces each statement's reads to that many
	// capacity units per second (--rate-limit).
	rateLimit float64
	// Timeout, when positive, bounds each statement (--timeout): parsing,
	// planning with its DescribeTable and ListTables calls, and every read.
	Timeout time.Duration
	// readPrice is the on-demand price in USD per million read units, for
	// the cost shown with the statistics (--read-price).
	readPrice float64
	// Progress, when set (stderr is a terminal), shows a progress line for
	// statements running longer than a second. It is erased before the
	// first byte of the statement's output unless outRedirected.
	Progress io.Writer
	// outRedirected says that out is not the terminal Progress writes to
	// (stdout goes to a file or a pipe): output then leaves the progress
	// line alone.
	outRedirected bool
	// Raw, when set, decodes Query/Scan pages straight into Arrow (engine.Env.Raw).
	Raw rawpage.Reader

	// limiter paces every statement of the session at rateLimit: a
	// statement's last response is paid by the next statement's first
	// request, so a script of many statements holds the rate too.
	limiter     *engine.RateLimiter
	limiterRate float64
	// statsSink, when set, receives each statement's statistics instead of
	// Err (SetStatsSink).
	statsSink func(StatementStats)
}

// DefaultReadPrice is DynamoDB's on-demand price per million read request
// units in us-east-1.
const DefaultReadPrice = 0.125

// Config is what a session is made with: the settings cmd/ddbsql takes
// from its flags. DefaultConfig gives the settings of a session made
// without flags.
type Config struct {
	// Format names the output format (table, csv, json…; --format).
	Format string
	// Stats is how statement statistics are reported (--stats).
	Stats StatsMode
	// Plan are the planner options (--allow-scan, --consistent, --strict,
	// --segments); a Parallelism of 0 is the host's CPU count.
	Plan planner.Options
	// FormatOptions are the output options (expanded display…).
	FormatOptions format.Options
	// MaxRCU, RateLimit, Timeout, ReadPrice and Concurrency are the
	// Session fields of the same names (--max-rcu, --rate-limit,
	// --timeout, --read-price, --concurrency).
	MaxRCU      float64
	RateLimit   float64
	Timeout     time.Duration
	ReadPrice   float64
	Concurrency int
	// Progress, when set (stderr is a terminal), shows a progress line for
	// long statements; OutRedirected says that the output does not go to
	// that terminal.
	Progress      io.Writer
	OutRedirected bool
	// Raw, when set, decodes Query/Scan pages straight into Arrow.
	Raw rawpage.Reader
}

// DefaultConfig is the configuration of a session made without flags:
// table output, no statistics, DefaultReadPrice.
func DefaultConfig() Config {
	return Config{Format: "table", Stats: StatsOff, ReadPrice: DefaultReadPrice}
}

// New makes a session over a client, writing results to out and
// statistics and notes to errOut, with the settings of cfg.
func New(client dynamo.Client, out, errOut io.Writer, cfg Config) *Session {
	if cfg.Format == "" {
		cfg.Format = "table"
	}
	if cfg.Stats == "" {
		cfg.Stats = StatsOff
	}
	return &Session{Client: client, Catalog: dynamo.NewCatalog(client), out: out, errOut: errOut, Mem: memory.DefaultAllocator,
		Format: cfg.Format, Stats: cfg.Stats, Options: cfg.Plan, FormatOptions: cfg.FormatOptions,
		MaxRCU: cfg.MaxRCU, rateLimit: cfg.RateLimit, Timeout: cfg.Timeout, readPrice: cfg.ReadPrice, Concurrency: cfg.Concurrency,
		Progress: cfg.Progress, outRedirected: cfg.OutRedirected, Raw: cfg.Raw}
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
		return s.runExplain(ctx, t)
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
	in := planner.SelectInput{AST: sel.AST, Paths: sel.Paths, QuotedValues: sel.QuotedValues, ItemTexts: sel.ItemTexts}
	p, err := planner.PlanSelect(ctx, s.Catalog, in, s.planOptions())
	if err != nil {
		var pe *diag.Error
		if errors.As(err, &pe) && pe.Phase == diag.Plan {
			var need *planner.ScanNeeded
			if errors.As(pe.Cause, &need) && s.ConfirmScan != nil {
				// The notes may change the answer (PK = "x" compares with
				// an attribute named x): show them with the question.
				s.printNotes(need.Notes)
				if !s.confirmScan(ctx, need.Estimate) {
					return nil, pe
				}
				opts := s.planOptions()
				opts.AllowScan = true
				p, err := planner.PlanSelect(ctx, s.Catalog, in, opts)
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
	opts := s.Options
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
	return s.ConfirmScan(ctx, scan)
}

func (s *Session) env(stats *engine.Stats) *engine.Env {
	env := &engine.Env{Client: s.Client, Mem: s.Mem, Stats: stats, Concurrency: s.Concurrency, Budget: s.MaxRCU}
	env.Raw = s.Raw
	if s.rateLimit > 0 {
		if s.limiter == nil || s.limiterRate != s.rateLimit {
			s.limiter, s.limiterRate = engine.NewRateLimiter(s.rateLimit), s.rateLimit
		}
		env.Limiter = s.limiter
	}
	return env
}

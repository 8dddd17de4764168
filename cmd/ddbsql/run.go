package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"runtime"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/dynamo/rawpage"
	"github.com/ddbsql/ddbsql/exec/dynamo/wire"
	"github.com/ddbsql/ddbsql/exec/engine"
	"github.com/ddbsql/ddbsql/exec/format"
	"github.com/ddbsql/ddbsql/exec/session"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/repl"
)

// streams are the process's standard streams.
type streams struct {
	in          io.Reader
	out, err    io.Writer
	interactive bool      // stdin and stdout are terminals
	outTerminal bool      // stdout is a terminal
	progress    io.Writer // stderr, when it is a terminal (progress lines)
	// outRedirected: stdout is not a terminal, so results do not share
	// the screen with the progress line.
	outRedirected bool
	// client replaces the DynamoDB connection (tests run the same command
	// lines against dynalite and the in-process backend).
	client dynamo.Client
}

// metadataAttemptTimeout, when set, replaces the per-attempt bound of
// DescribeTable and ListTables (dynamo.DefaultMetadataAttemptTimeout), so
// tests of a dead endpoint need not wait half a minute.
var metadataAttemptTimeout time.Duration

// version is set at build time with -ldflags "-X main.version=…".
var version = "0.1.0-dev"

func run(ctx context.Context, args []string, st streams) int {
	code, err := safeExecute(ctx, args, st)
	if err != nil {
		printError(st.err, err)
	}
	return code
}

// safeExecute is execute with a panic outside any statement (loading
// --data, connecting) turned into an internal error: the user sees
// "error: internal error: …" and status 1, never a stack trace.
func safeExecute(ctx context.Context, args []string, st streams) (code int, err error) {
	err = engine.Safely(func() (err error) {
		code, err = execute(ctx, args, st)
		return err
	})
	if engine.PanicStack(err) != nil {
		code = exitError
	}
	return code, err
}

// execute runs the command line and returns the exit status with the error
// that caused a failing one (usage problems are printed where they are
// found and return no error).
func execute(ctx context.Context, args []string, st streams) (int, error) {
	cfg, code, ok := parseFlags(args, st.out, st.err)
	if !ok {
		return code, nil
	}
	if cfg.version {
		fmt.Fprintf(st.out, "ddbsql %s\n", version)
		return exitOK, nil
	}
	if cfg.undo != "" {
		scriptMode.Store(true)
		return runUndo(ctx, cfg, st)
	}
	if len(cfg.load.sources) > 0 {
		scriptMode.Store(true) // a second signal exits at once; the checkpoint is saved every second
		return runLoads(ctx, cfg, st)
	}
	if len(cfg.exprs)+len(cfg.files) > 0 || !st.interactive {
		scriptMode.Store(true)
	}
	script, code, ok := readScript(ctx, cfg, st)
	if !ok {
		return code, nil
	}
	toREPL := len(script) == 0 && st.interactive
	if !toREPL && format.IsBinary(cfg.format) && cfg.output == "" && st.outTerminal {
		fmt.Fprintf(st.err, "error: --format %s writes a binary file, which is not shown on a terminal\nhint: write it to a file with -o FILE (or redirect stdout)\n", strings.ToLower(cfg.format))
		return exitUsage, nil
	}
	describeOnly := false
	if len(cfg.partitionBy) > 0 && !toREPL {
		var err error
		if describeOnly, err = describesLayout(cfg, script); err != nil {
			return exitUsage, err
		}
		if !describeOnly {
			if err := checkPartitionedWrite(cfg); err != nil {
				return exitUsage, err
			}
		}
	}
	if len(cfg.partitionBy) > 0 && !describeOnly {
		if toREPL {
			return exitUsage, replPartitionError
		}
		export, err := preparePartitioned(cfg, script, st.err)
		if err != nil {
			return exitUsage, err
		}
		if export.state.Complete {
			return exitOK, nil
		}
		cfg.export = export
	}
	output, code, ok := openOutput(cfg, st)
	if !ok {
		return code, nil
	}
	sess, closeClient, err := connect(ctx, cfg, st, toREPL)
	if err != nil {
		if output != nil {
			output.Close()
		}
		return exitError, err
	}
	defer closeClient()
	if toREPL {
		if cfg.stats == "" {
			if err := sess.SetStats(session.StatsText); err != nil {
				return exitError, err
			}
		}
		return runREPL(ctx, st, sess, cfg, output), nil
	}
	// Standard output is a destination too: a parquet or arrow result
	// written to it is alone there, never after or before other output.
	stdout := format.NewDestination(st.out, "standard output")
	err = repl.RunScripts(ctx, repl.ScriptConfig{Session: sess, Out: stdout, Err: st.err, Output: output, TerminalOut: st.outTerminal}, script)
	if code, interrupted := signalExit(ctx); interrupted {
		return code, err
	}
	if err != nil {
		return exitError, err
	}
	return exitOK, nil
}

// readScript gathers the scripts from -e, -f and piped stdin, in that
// order. Errors name their place psql style (report.sql:12:, <stdin>:3:);
// a single -e keeps plain messages, several are told apart as -e #1, -e #2.
func readScript(ctx context.Context, cfg *config, st streams) ([]repl.Script, int, bool) {
	var parts []repl.Script
	for i, e := range cfg.exprs {
		name := ""
		if len(cfg.exprs) > 1 {
			name = fmt.Sprintf("-e #%d", i+1)
		}
		parts = append(parts, repl.Script{Name: name, Text: e})
	}
	for _, f := range cfg.files {
		data, err := readFile(f)
		if err != nil {
			fmt.Fprintf(st.err, "error: cannot read -f %s: %v\n", f, err)
			return nil, exitUsage, false
		}
		parts = append(parts, repl.Script{Name: f, Path: f, Text: data})
	}
	if len(parts) == 0 {
		if st.interactive {
			return nil, exitOK, true // no script: run the REPL
		}
		data, err := readStdin(ctx, st.in)
		if err != nil {
			if code, interrupted := signalExit(ctx); interrupted {
				return nil, code, false
			}
			fmt.Fprintf(st.err, "error: cannot read stdin: %v\n", err)
			return nil, exitUsage, false
		}
		parts = append(parts, repl.Script{Name: "<stdin>", Text: data})
	}
	return parts, exitOK, true
}

// openOutput creates or truncates the -o FILE (nil without -o) before any
// statement runs, so that a file that cannot be written is a usage error.
func openOutput(cfg *config, st streams) (*format.Destination, int, bool) {
	if cfg.output == "" || cfg.export != nil { // a partitioned export's --output is its directory
		return nil, exitOK, true
	}
	d, err := format.CreateDestination(cfg.output)
	if err != nil {
		fmt.Fprintf(st.err, "error: cannot create -o %s: %v\n", cfg.output, unwrapPath(err))
		return nil, exitUsage, false
	}
	return d, exitOK, true
}

// unwrapPath drops the path an *os.PathError repeats.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

func readFile(name string) (string, error) {
	f, err := os.Open(name)
	if err != nil {
		return "", err
	}
	defer f.Close()
	return repl.ReadScript(f)
}

// readStdin reads the script on stdin; a signal while it waits (a pipe
// that is still open, a terminal on stdin with stdout redirected) ends the
// wait instead of being held until the end of input.
func readStdin(ctx context.Context, in io.Reader) (string, error) {
	type result struct {
		text string
		err  error
	}
	done := make(chan result, 1)
	go func() {
		text, err := repl.ReadScript(in)
		done <- result{text, err}
	}()
	select {
	case r := <-done:
		return r.text, r.err
	case <-ctx.Done():
		return "", context.Cause(ctx)
	}
}

// connect connects to DynamoDB or opens the offline backend (which loads
// its --data tables at once when eager, for the REPL); the function it
// returns stops what the backend still reads.
func connect(ctx context.Context, cfg *config, st streams, eager bool) (*session.Session, func(), error) {
	var client dynamo.Client = st.client
	var raw rawpage.Reader // the fast read path: DynamoDB's bodies, or memdb's rendered pages
	closeClient := func() {}
	var tableNotes map[string]string
	if client == nil && (cfg.demo || len(cfg.data.sources) > 0) {
		oc, err := openOffline(ctx, cfg, st.progress, eager)
		if err != nil {
			return nil, nil, err
		}
		if !cfg.asOf.IsZero() {
			bs := oc.Boundaries()
			if len(bs) == 0 {
				oc.Close()
				return nil, nil, &diag.Error{Phase: diag.Load, Code: diag.CodeAsOf, Msg: "--as-of: no --data table has incremental exports; give a full export and the incremental exports after it, --data full/ --data incr1/ …"}
			}
			printBoundaries(st.err, cfg.asOf, bs)
		}
		tableNotes = boundaryNotes(oc.Boundaries())
		client, raw, closeClient = oc, oc.Raw(), oc.Close
	}
	if client == nil {
		conn, err := dynamo.Connect(ctx, dynamo.ConnectOptions{EndpointURL: cfg.endpointURL, Region: cfg.region, Profile: cfg.profile,
			MetadataAttemptTimeout: metadataAttemptTimeout})
		if err != nil {
			return nil, nil, engine.ConnectError(err)
		}
		client = conn.Client
		raw = wire.New(conn.Client)
	}
	sc := session.Config{Format: strings.ToLower(cfg.format), Stats: session.StatsOff,
		Plan:   planner.Options{AllowScan: cfg.allowScan, Consistent: cfg.consistent, Strict: cfg.strict, Segments: cfg.segments, Parallelism: runtime.NumCPU()},
		MaxRCU: cfg.maxRCU, MaxWCU: cfg.maxWCU, DryRun: cfg.dryRun, ReadOnly: cfg.readOnly, Journal: cfg.journal, RateLimit: cfg.rateLimit, Timeout: cfg.timeout, ReadPrice: cfg.readPrice, Concurrency: cfg.concurrency, Raw: raw,
		MemoryLimit: cfg.memoryLimit, TempDir: cfg.tempDir, SteerCollector: true, TableNotes: tableNotes,
		Export: cfg.dialect.dialectOptions(cfg.data.sources, cfg.partitionBy)}
	if cfg.stats != "" {
		sc.Stats = session.StatsMode(cfg.stats)
	}
	if cfg.export != nil {
		cfg.export.partitionedConfig(&sc)
	}
	if st.progress != nil {
		sc.Progress, sc.OutRedirected = st.progress, st.outRedirected || cfg.output != ""
	}
	s := session.New(client, st.out, st.err, sc)
	return s, closeClient, nil
}

// printError writes an error as "error: …" with any further lines (source
// excerpt, caret, hint) below it.
func printError(w io.Writer, err error) {
	where := ""
	var located *repl.ScriptError
	if errors.As(err, &located) {
		where = fmt.Sprintf("%s:%d: ", located.Name, located.Line)
		err = located.Err
	}
	msg, hint := err.Error(), ""
	var de *diag.Error
	if errors.As(err, &de) {
		msg, hint = de.Text(), de.Hint
		if where != "" {
			msg = de.TextAtColumn() // the location names the line already
		}
	}
	msg, hint = printable(where+msg), printable(hint)
	lines := strings.Split(strings.TrimRight(msg, "\n"), "\n")
	fmt.Fprintf(w, "error: %s\n", lines[0])
	for _, l := range lines[1:] {
		fmt.Fprintf(w, "%s\n", l)
	}
	if hint != "" {
		// A hint of several lines is several pieces of advice: each gets
		// its own "hint:".
		for _, h := range strings.Split(hint, "\n") {
			fmt.Fprintf(w, "hint: %s\n", h)
		}
	}
}

// printable replaces control characters and invalid UTF-8 in a message
// with U+FFFD, one for one (so a caret under a source line still lines
// up): an error quoting a binary script or a name with an escape sequence
// must not drive the terminal.
func printable(s string) string {
	clean := true
	for _, r := range s {
		if r == utf8.RuneError || (unicode.IsControl(r) && r != '\n' && r != '\t') {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	return strings.Map(func(r rune) rune {
		if r == utf8.RuneError || (unicode.IsControl(r) && r != '\n' && r != '\t') {
			return utf8.RuneError
		}
		return r
	}, s)
}

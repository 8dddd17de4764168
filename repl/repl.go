//go:build unix

package repl

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"sort"
	"strings"
	"sync/atomic"

	prompt "github.com/c-bata/go-prompt"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/session"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/funcs"
)

// REPL is one interactive session.
type REPL struct {
	cfg      Config
	sess     *session.Session
	term     *terminal
	out, err *termWriter
	base     context.Context

	acc    accumulator
	hist   *history
	set    settings
	comp   *completer
	schema *schemaCache
	seen   *seenAttrs
	reader lineReader

	progress               io.Writer // the session's progress line (stderr), if any
	mainPrompt, contPrompt string
	interrupts             int  // Ctrl-C presses in a row at an empty prompt
	quit                   bool // \q, quit, exit
	histWarned             bool
	pager                  atomic.Pointer[pagedOutput]
	meta                   metaState
}

// Run runs the REPL until \q, quit, exit, Ctrl-D or a double Ctrl-C, and
// returns the exit status. SIGTERM and SIGHUP restore the terminal and end
// the process (status 128+signal). Statements run with contexts detached
// from ctx: a Ctrl-C cancels only the statement it interrupts.
func Run(ctx context.Context, cfg Config) (code int) {
	r, err := newREPL(ctx, cfg)
	if err != nil {
		fmt.Fprintf(cfg.Err, "error: cannot start the interactive REPL: %v\n", err)
		return 1
	}
	defer r.term.Close()
	stop := r.watchSignals()
	defer stop()
	defer func() {
		if p := recover(); p != nil {
			r.term.Close()
			fmt.Fprintf(cfg.Err, "\nerror: internal error in the REPL: %v (please report it)\n", p)
			code = 1
		}
	}()
	return r.loop()
}

func newREPL(ctx context.Context, cfg Config) (*REPL, error) {
	if cfg.Session == nil || cfg.In == nil || cfg.Out == nil {
		return nil, fmt.Errorf("repl: incomplete configuration")
	}
	if cfg.Err == nil {
		cfg.Err = os.Stderr
	}
	if cfg.PrintError == nil {
		cfg.PrintError = func(w io.Writer, err error) { fmt.Fprintf(w, "error: %v\n", err) }
	}
	if cfg.HistorySize <= 0 {
		cfg.HistorySize = DefaultHistorySize
	}
	t, err := openTerminal(cfg.In, cfg.Out)
	if err != nil {
		return nil, err
	}
	lines := &lineState{atStart: true}
	r := &REPL{cfg: cfg, sess: cfg.Session, term: t, base: context.WithoutCancel(ctx),
		out: &termWriter{w: cfg.Out, state: lines}, err: &termWriter{w: cfg.Err, state: lines}}
	r.seen = newSeenAttrs()
	r.sess.WrapClient(func(c dynamo.Client) dynamo.Client { return recordingClient{Client: c, seen: r.seen} })
	r.sess.SetConfirmScan(r.confirmScan)
	r.sess.SetConfirmWrite(r.confirmWrite)
	r.progress = r.sess.Settings().Progress
	r.set = settingsOf(r.sess)
	r.schema = newSchemaCache(r.base, r.sess.Catalog())
	names := append(funcs.ScalarNames(), funcs.AggregateNames()...)
	sort.Strings(names)
	r.comp = &completer{src: replSource{r}, functions: names}
	r.mainPrompt, r.contPrompt = prompts(cfg.Label)
	r.hist, err = loadHistory(cfg.HistoryPath, cfg.HistorySize)
	if err != nil {
		fmt.Fprintf(r.err, "warning: history file %s: %v\n", cfg.HistoryPath, err)
		r.histWarned = true
	}
	if ed, err := newGoPrompt(t, r, cfg.NoColor); err == nil {
		r.reader = ed
	} else {
		fmt.Fprintf(r.err, "warning: line editing is off (%v)\n", err)
		r.reader = &plainReader{in: bufio.NewReader(cfg.In), out: r.out, prefix: r.Prefix}
	}
	if cfg.Pager != "" && !pagerAvailable(cfg.Pager) {
		if cfg.Pager != DefaultPager {
			fmt.Fprintf(r.err, "warning: pager %q not found; results are not paged\n", cfg.Pager)
		}
		r.cfg.Pager = ""
	}
	r.meta.output.adopt(cfg.Output)
	return r, nil
}

// prompts builds the main prompt, "ddbsql (label)> ", and a continuation
// prompt of the same width.
func prompts(label string) (main, cont string) {
	main = "ddbsql> "
	if label != "" {
		main = "ddbsql (" + label + ")> "
	}
	pad := len([]rune(main)) - len("...> ")
	if pad < 0 {
		pad = 0
	}
	return main, strings.Repeat(" ", pad) + "...> "
}

func (r *REPL) loop() int {
	fmt.Fprintf(r.out, "ddbsql %s · %s\nType \\help for help, \\q or Ctrl-D to quit.\n", r.cfg.Version, r.cfg.Label)
	r.schema.TableNames(0) // start ListTables so the first completion is quick
	for !r.quit {
		r.out.endLine()
		line, err := r.reader.ReadLine(r.hist.Entries())
		r.out.markLineStart()
		if err != nil {
			return 0 // Ctrl-D, double Ctrl-C, or the terminal went away
		}
		r.interrupts = 0
		r.handle(line)
	}
	return 0
}

// handle runs one line: quit words and meta-commands at once, SQL when a
// statement is complete.
func (r *REPL) handle(line string) {
	trimmed := strings.TrimSpace(line)
	switch {
	case r.acc.Empty() && isQuitWord(trimmed):
		r.remember(trimmed)
		r.quit = true
		return
	case r.acc.Empty() && strings.EqualFold(strings.TrimSuffix(trimmed, ";"), "help"):
		r.remember(trimmed)
		r.printHelp()
		return
	case isMetaLine(trimmed) && !endsOpen(r.acc.Pending()):
		r.remember(trimmed)
		r.runMeta(trimmed)
		return
	case r.acc.Empty() && foreignHint(trimmed) != "":
		r.remember(trimmed)
		fmt.Fprintf(r.err, "hint: %s\n", foreignHint(trimmed))
		return
	}
	ch := r.acc.Add(line)
	if ch.Source != "" {
		for _, e := range historyEntries(ch.Source) {
			r.remember(e)
		}
	}
	for _, st := range ch.Statements {
		r.meta.last = st
		r.runSQL(st)
	}
}

func (r *REPL) remember(entry string) {
	if err := r.hist.Add(entry); err != nil && !r.histWarned {
		r.histWarned = true
		r.out.endLine()
		fmt.Fprintf(r.err, "warning: cannot write the history file %s: %v\n", r.cfg.HistoryPath, err)
	}
}

// Prefix implements editorHooks.
func (r *REPL) Prefix() string {
	if r.acc.Empty() {
		return r.mainPrompt
	}
	return r.contPrompt
}

// Complete implements editorHooks.
func (r *REPL) Complete(d prompt.Document) []prompt.Suggest {
	line := d.TextBeforeCursor()
	var s []suggestion
	if r.acc.Empty() && isMetaLine(line) {
		s = r.comp.completeMeta(line)
	} else {
		before, whole := line, d.Text
		if !r.acc.Empty() {
			before = r.acc.Pending() + "\n" + line
			whole = r.acc.Pending() + "\n" + d.Text
		}
		s = r.comp.complete(before, whole)
	}
	out := make([]prompt.Suggest, len(s))
	for i, x := range s {
		out[i] = prompt.Suggest{Text: x.Text, Description: x.Desc}
	}
	return out
}

// Interrupt implements editorHooks: Ctrl-C clears the line and any
// unfinished statement; twice in a row at an empty prompt it quits.
func (r *REPL) Interrupt(lineWasEmpty bool) bool {
	if lineWasEmpty && r.acc.Empty() {
		r.interrupts++
		if r.interrupts >= 2 {
			return true
		}
		_, _ = io.WriteString(r.cfg.Out, "(Ctrl-C again or Ctrl-D to quit)\n")
		return false
	}
	r.acc.Reset()
	r.interrupts = 0
	return false
}

// KeyPressed implements editorHooks.
func (r *REPL) KeyPressed() { r.interrupts = 0 }

// replSource feeds completion from the schema cache and seen attributes.
type replSource struct{ r *REPL }

func (s replSource) TableNames() []string { return s.r.schema.TableNames(listWait) }
func (s replSource) Seen(table string) []string {
	return s.r.seen.Names(table)
}
func (s replSource) Tables(names []string) map[string]*planner.TableDef {
	return s.r.schema.Describe(names, describeWait)
}

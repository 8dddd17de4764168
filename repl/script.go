package repl

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/ddbsql/ddbsql/exec/format"
	"github.com/ddbsql/ddbsql/exec/session"
)

// Script is one script to run: the text of an -e, an -f file or stdin.
type Script struct {
	// Name locates errors: "report.sql", "<stdin>"; "" prints them
	// without a location (a single -e).
	Name string
	// Path is the file the text came from, "" for -e and stdin: a \i of
	// the same file inside it is a recursion, and \ir names files
	// relative to it.
	Path string
	Text string
}

// ScriptConfig is how scripts run.
type ScriptConfig struct {
	// Session runs the statements; its settings are where the scripts
	// start, and meta-commands change them.
	Session *session.Session
	// Out is stdout (results unless \o says otherwise); Err is stderr
	// (errors, statistics, \timing, answers to settings commands).
	Out, Err io.Writer
	// Output, when set, is where results go from the start (-o FILE), as
	// if the scripts began with \o FILE; the scripts close it.
	Output *format.Destination
	// TerminalOut says Out is a terminal: a parquet or arrow result
	// bound for it is refused.
	TerminalOut bool
}

// maxIncludeDepth bounds \i nesting: deeper than this is a loop the path
// check could not see (the same file under another name) or a mistake.
const maxIncludeDepth = 16

// RunScripts parses every script, then runs their statements and
// meta-commands in order and stops at the first failure, which it returns
// as a *ScriptError when the script has a Name. Nothing runs when any
// script has a syntax error. \q stops all of them successfully. A file run
// by \i is parsed when \i runs it.
func RunScripts(ctx context.Context, cfg ScriptConfig, scripts []Script) error {
	start := time.Now() // the first statement's --timeout covers parsing
	parsed := make([][]scriptItem, len(scripts))
	for i, s := range scripts {
		items, err := parseScript(s.Text)
		if err != nil {
			if cfg.Output != nil {
				cfg.Output.Close()
			}
			return locate(err, s.Name, lineOfParseError(err))
		}
		parsed[i] = items
	}
	r := &scriptRunner{ctx: ctx, sess: cfg.Session, stdout: cfg.Out, stderr: cfg.Err,
		set: settingsOf(cfg.Session), start: start, terminalOut: cfg.TerminalOut}
	r.output.adopt(cfg.Output)
	err := r.runAll(scripts, parsed)
	if cerr := r.redirect(""); err == nil {
		err = cerr
	}
	if errors.Is(err, errStopScript) {
		return nil
	}
	return err
}

// scriptRunner runs scripts; it is the metaHost of -e, -f and stdin.
type scriptRunner struct {
	ctx            context.Context
	sess           *session.Session
	stdout, stderr io.Writer
	set            settings
	start          time.Time // the clock of the next statement's --timeout
	output         outputFile
	terminalOut    bool     // stdout is a terminal
	files          []string // the files being run, outermost first (\i recursion)
	quit           bool
}

func (r *scriptRunner) runAll(scripts []Script, parsed [][]scriptItem) error {
	for i, s := range scripts {
		if err := r.runFile(s, parsed[i]); err != nil {
			return err
		}
		if r.quit {
			return errStopScript
		}
	}
	return nil
}

// runFile runs one parsed script, with its file on the \i stack.
func (r *scriptRunner) runFile(s Script, items []scriptItem) error {
	if s.Path != "" {
		path, err := canonicalPath(s.Path)
		if err != nil {
			path = s.Path
		}
		r.files = append(r.files, path)
		defer func() { r.files = r.files[:len(r.files)-1] }()
	}
	return runItems(r, s.Name, items)
}

// runItems runs items in order and stops at the first failure, located at
// the item's first line (a failure inside a file \i ran keeps the inner
// location).
func runItems(h metaHost, name string, items []scriptItem) error {
	for _, it := range items {
		var err error
		switch {
		case it.SQL != "":
			err = h.runStatement(it.SQL)
		case it.Meta != "":
			err = runMetaLine(h, it.Meta)
		case it.Foreign != "":
			err = foreignError(it.Foreign)
		}
		if err != nil {
			return locate(err, name, it.Line)
		}
		if h.stopping() {
			return errStopScript
		}
	}
	return nil
}

func (r *scriptRunner) settings() *settings { return &r.set }
func (r *scriptRunner) messages() io.Writer { return r.stderr }
func (r *scriptRunner) listings() io.Writer { return r.stdout }
func (r *scriptRunner) interactive() bool   { return false }
func (r *scriptRunner) stop()               { r.quit = true }
func (r *scriptRunner) stopping() bool      { return r.quit }
func (r *scriptRunner) refresh()            { r.sess.Catalog().Refresh() }
func (r *scriptRunner) runningFile() string { return last(r.files) }
func (r *scriptRunner) edit() error         { return errNeedsTerminal("e") }

func (r *scriptRunner) runStatement(sql string) error {
	if err := r.set.applyTo(r.sess); err != nil {
		return err
	}
	if err := r.sess.SetStats(r.set.Stats); err != nil {
		return err
	}
	r.sess.SetOutput(r.stdout)
	if w := r.output.writer(); w != nil {
		r.sess.SetOutput(w)
	} else if r.terminalOut {
		if err := binaryToTerminal(r.set.Format); err != nil {
			return err
		}
	}
	began := time.Now()
	start := r.start
	if start.IsZero() {
		start = began
	}
	r.start = time.Time{}
	err := r.sess.RunFrom(r.ctx, sql, start)
	if r.set.Timing {
		fmt.Fprintf(r.stderr, "Time: %s\n", formatDuration(time.Since(began)))
	}
	return err
}

// include runs a file with \i: relative names are relative to the current
// directory (psql's \i), the whole file is parsed before it runs, and a
// file already being run is a recursion, not a loop.
func (r *scriptRunner) include(name string) error {
	file, err := loadInclude(name, r.files)
	if err != nil {
		return err
	}
	return r.runFile(Script{Name: name, Path: file.path, Text: file.text}, file.items)
}

// includedFile is a file \i is about to run, parsed whole.
type includedFile struct {
	path, text string
	items      []scriptItem
}

// loadInclude reads and parses the file \i names, refusing one already
// among the running files (a recursion); a syntax error is located in the
// file. The REPL and scripts share it.
func loadInclude(name string, running []string) (includedFile, error) {
	path, err := canonicalPath(name)
	if err != nil {
		return includedFile{}, fmt.Errorf(`\i %s: %v`, name, err)
	}
	if err := checkInclude(running, name, path); err != nil {
		return includedFile{}, err
	}
	text, err := readScriptFile(name)
	if err != nil {
		return includedFile{}, fmt.Errorf(`\i %s: %v`, name, err)
	}
	items, err := parseScript(text)
	if err != nil {
		return includedFile{}, locate(err, name, lineOfParseError(err))
	}
	return includedFile{path: path, text: text, items: items}, nil
}

// checkInclude refuses a \i of a file that is already running (a file
// including itself, directly or through others) or one too deep.
func checkInclude(running []string, name, path string) error {
	for _, f := range running {
		if f == path {
			return fmt.Errorf(`\i %s: the file is already running (%s); a script cannot include itself`,
				name, strings.Join(append(baseNames(running), filepath.Base(path)), " → "))
		}
	}
	if len(running) >= maxIncludeDepth {
		return fmt.Errorf(`\i %s: more than %d files are nested; \i goes at most %d deep`, name, maxIncludeDepth, maxIncludeDepth)
	}
	return nil
}

func last(files []string) string {
	if len(files) == 0 {
		return ""
	}
	return files[len(files)-1]
}

func baseNames(paths []string) []string {
	out := make([]string, len(paths))
	for i, p := range paths {
		out[i] = filepath.Base(p)
	}
	return out
}

// canonicalPath names a file the same way however it is reached (relative,
// through a symbolic link), for the recursion check.
func canonicalPath(name string) (string, error) {
	abs, err := filepath.Abs(name)
	if err != nil {
		return "", err
	}
	if real, err := filepath.EvalSymlinks(abs); err == nil {
		return real, nil
	}
	return abs, nil
}

// redirect sends results to a file (\o FILE), or back to stdout.
func (r *scriptRunner) redirect(name string) error { return r.output.set(name) }

// unwrapPathError drops the "open NAME:" that os adds, the message names
// the file already.
func unwrapPathError(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}

// MaxScriptBytes bounds a script read from -f, stdin or \i: -f /dev/zero,
// or a pipe that never ends, must not grow until the process runs out of
// memory.
const MaxScriptBytes = 64 << 20

// ErrScriptTooLarge is the error for a script over MaxScriptBytes.
var ErrScriptTooLarge = fmt.Errorf("the script is larger than %d MB; split it into several files", MaxScriptBytes>>20)

// ReadScript reads a script of at most MaxScriptBytes. A UTF-8 byte order
// mark at the start (editors on Windows write one) is dropped: it would
// hide a meta-command on the first line and is no SQL.
func ReadScript(r io.Reader) (string, error) {
	if r == nil {
		return "", nil
	}
	b, err := io.ReadAll(io.LimitReader(r, MaxScriptBytes+1))
	if err == nil && len(b) > MaxScriptBytes {
		err = ErrScriptTooLarge
	}
	return strings.TrimPrefix(string(b), "\ufeff"), err
}

func readScriptFile(name string) (string, error) {
	f, err := os.Open(name)
	if err != nil {
		return "", unwrapPathError(err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return "", fmt.Errorf("is a directory")
	}
	return ReadScript(f)
}

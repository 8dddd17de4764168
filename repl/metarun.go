//go:build unix

package repl

import (
	"errors"
	"fmt"
	"io"
)

// metaState is what the REPL's meta-commands keep between lines.
type metaState struct {
	last     string     // the last statement typed, for \e
	output   outputFile // \o FILE
	includes []string   // files \i is running, outermost first
}

// errShown is a failure the REPL has printed already.
var errShown = errors.New("error shown")

// runMeta runs a \command and prints its failure.
func (r *REPL) runMeta(line string) {
	err := runMetaLine(replHost{r}, line)
	if err != nil && !errors.Is(err, errShown) && !errors.Is(err, errStopScript) {
		r.out.endLine()
		r.cfg.PrintError(r.err, err)
	}
}

// printHelp prints the \? text (also for help typed alone).
func (r *REPL) printHelp() { io.WriteString(r.out, helpText()) }

// replHost runs meta-commands in the REPL.
type replHost struct{ r *REPL }

func (h replHost) settings() *settings { return &h.r.set }
func (h replHost) messages() io.Writer { return h.r.out }
func (h replHost) listings() io.Writer { return h.r.out }
func (h replHost) interactive() bool   { return true }
func (h replHost) stop()               { h.r.quit = true }
func (h replHost) stopping() bool      { return h.r.quit }
func (h replHost) refresh()            { h.r.schema.Refresh() }
func (h replHost) runningFile() string { return last(h.r.meta.includes) }
func (h replHost) edit() error         { return h.r.edit() }

// runStatement runs SQL for a command. Typed at the prompt, its failure
// is printed at once, like a statement's; inside a file \i runs, it is
// returned to be printed with the file's name and line.
func (h replHost) runStatement(sql string) error {
	r := h.r
	inFile := len(r.meta.includes) > 0
	if err := r.runSQLShowing(sql, !inFile); err != nil {
		if inFile {
			return err
		}
		return errShown
	}
	return nil
}

// include runs a file as a script (\i): parsed first, then run item by
// item, stopping at the first failure.
func (h replHost) include(name string) error {
	r := h.r
	file, err := loadInclude(name, r.meta.includes)
	if err != nil {
		return err
	}
	r.meta.includes = append(r.meta.includes, file.path)
	defer func() { r.meta.includes = r.meta.includes[:len(r.meta.includes)-1] }()
	return runItems(h, name, file.items)
}

// redirect sends results to a file (\o FILE) or back to the terminal.
func (h replHost) redirect(name string) error {
	if err := h.r.meta.output.set(name); err != nil {
		return err
	}
	if name == "" {
		fmt.Fprintln(h.r.out, "Results go to the terminal.")
	} else {
		fmt.Fprintf(h.r.out, "Results go to %s (\\o alone: back to the terminal).\n", name)
	}
	return nil
}

//go:build unix

package repl

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
)

// editorCommand is the editor \e runs, psql's way: $VISUAL, else $EDITOR,
// else vi. The value may carry arguments ("code --wait").
func editorCommand(getenv func(string) string) (string, []string) {
	for _, name := range []string{"VISUAL", "EDITOR"} {
		if f := strings.Fields(getenv(name)); len(f) > 0 {
			return f[0], f[1:]
		}
	}
	return "vi", nil
}

// edit opens the last statement (or an empty buffer) in the editor, in a
// temporary file, and when the editor exits with status 0 runs what was
// saved as if it had been typed: complete statements run, an unfinished
// one waits for its ';'.
func (r *REPL) edit() error {
	name, args := editorCommand(os.Getenv)
	path, err := exec.LookPath(name)
	if err != nil {
		return fmt.Errorf(`\e: no editor %q found; set $VISUAL or $EDITOR to an editor's command`, name)
	}
	f, err := os.CreateTemp("", "ddbsql-*.sql")
	if err != nil {
		return fmt.Errorf(`\e: cannot create a temporary file: %v`, err)
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	if r.meta.last != "" {
		_, err = f.WriteString(r.meta.last + ";\n")
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf(`\e: cannot write %s: %v`, tmp, err)
	}

	_ = r.term.Restore()
	r.out.endLine()
	cmd := exec.Command(path, append(args, tmp)...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = r.cfg.In, r.cfg.Out, r.cfg.Err
	err = cmd.Run()
	r.out.markLineStart()
	if err != nil {
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return fmt.Errorf(`\e: %s exited with status %d; nothing was run`, name, exit.ExitCode())
		}
		return fmt.Errorf(`\e: cannot run %s: %v`, name, err)
	}
	text, err := readScriptFile(tmp)
	if err != nil {
		return fmt.Errorf(`\e: cannot read what was saved: %v`, err)
	}
	for _, line := range strings.Split(strings.TrimRight(text, "\n"), "\n") {
		if r.quit {
			break
		}
		r.handle(line)
	}
	return nil
}

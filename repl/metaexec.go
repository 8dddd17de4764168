package repl

import (
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"time"
)

// metaHost is what meta-commands act on: the interactive REPL or a script
// (-e, -f, stdin). Both run the same commands through runMetaCommand; they
// differ in how a statement runs and in what only a terminal can do.
type metaHost interface {
	// settings are what \format, \x, \timing, \stats and \set change.
	settings() *settings
	// messages receives what settings commands say they changed.
	messages() io.Writer
	// listings receives what a command was asked to show: \help, \set.
	listings() io.Writer
	// runStatement runs SQL a command stands for (\dt, \d t, \di t).
	runStatement(sql string) error
	// refresh forgets cached table descriptions and the table list.
	refresh()
	// include runs a file (\i).
	include(path string) error
	// runningFile is the file being run by \i or -f ("" at the prompt,
	// in -e and stdin), which \ir names files relative to.
	runningFile() string
	// redirect sends results to a file, or back to stdout for "" (\o).
	redirect(path string) error
	// edit runs the last statement through an editor (\e).
	edit() error
	// stop ends the REPL or the script (\q).
	stop()
	// stopping reports whether \q ran.
	stopping() bool
	// interactive reports whether a user at a terminal sees the answers.
	interactive() bool
}

// errNeedsTerminal is returned for a command only a terminal can do.
func errNeedsTerminal(name string) error {
	return fmt.Errorf(`\%s needs an interactive terminal; it cannot run from -e, -f or stdin`, name)
}

// runMetaLine parses and runs one \command line.
func runMetaLine(h metaHost, line string) error {
	cmd, err := parseMeta(line)
	if err != nil {
		return err
	}
	return runMetaCommand(h, cmd)
}

// runMetaCommand runs a parsed meta-command. An error is the command's
// failure; the REPL prints it and goes on, a script stops.
func runMetaCommand(h metaHost, cmd metaCmd) error {
	switch cmd.Name {
	case "q", "quit":
		h.stop()
	case "help", "h":
		io.WriteString(h.listings(), helpText())
	case "dt":
		return h.runStatement("SHOW TABLES")
	case "d":
		if len(cmd.Args) == 0 {
			return h.runStatement("SHOW TABLES")
		}
		t, err := oneTable(cmd)
		if err != nil {
			return err
		}
		return h.runStatement("DESCRIBE " + backtick(t))
	case "di":
		t, err := oneTable(cmd)
		if err != nil {
			return err
		}
		return h.runStatement("SHOW INDEXES FROM " + backtick(t))
	case "refresh":
		h.refresh()
		fmt.Fprintln(h.messages(), "Table list and table descriptions will be read again.")
	case "i", "include":
		if len(cmd.Args) != 1 {
			return fmt.Errorf(`usage: \i FILE (quote a name with blanks: "my file.sql")`)
		}
		return h.include(cmd.Args[0])
	case "ir", "include_relative":
		if len(cmd.Args) != 1 {
			return fmt.Errorf(`usage: \ir FILE, relative to the file being run (quote a name with blanks: "my file.sql")`)
		}
		return h.include(relativeTo(h.runningFile(), cmd.Args[0]))
	case "o", "out":
		if len(cmd.Args) > 0 && strings.HasPrefix(cmd.Args[0], "|") {
			return h.redirect(strings.Join(cmd.Args, " ")) // psql's \o |command
		}
		switch len(cmd.Args) {
		case 0:
			return h.redirect("")
		case 1:
			return h.redirect(cmd.Args[0])
		}
		return fmt.Errorf(`usage: \o FILE sends results to FILE, \o alone back to stdout`)
	case "e", "edit":
		if len(cmd.Args) != 0 {
			return fmt.Errorf(`\e takes no argument; it edits the last statement`)
		}
		return h.edit()
	default:
		if cmd.Name == "pager" && !h.interactive() {
			// Paging is for a screen; a script written in the REPL keeps
			// running without it.
			fmt.Fprintf(h.messages(), "warning: \\pager needs an interactive terminal; ignored\n")
			return nil
		}
		msg, handled, err := h.settings().apply(cmd)
		switch {
		case !handled:
			return fmt.Errorf(`unknown command \%s; \? lists the commands`, cmd.Name)
		case err != nil:
			return err
		}
		if cmd.Name == "set" && len(cmd.Args) == 0 {
			fmt.Fprintln(h.listings(), msg)
		} else {
			fmt.Fprintln(h.messages(), msg)
		}
	}
	return nil
}

// relativeTo names a \ir file: relative to the directory of the file
// being run, or to the current directory when none is (psql's \ir).
func relativeTo(running, name string) string {
	if running == "" || filepath.IsAbs(name) {
		return name
	}
	return filepath.Join(filepath.Dir(running), name)
}

// oneTable checks that a command got exactly one table name.
func oneTable(cmd metaCmd) (string, error) {
	if len(cmd.Args) != 1 {
		return "", fmt.Errorf(`usage: \%s TABLE (quote names with blanks: "my table")`, cmd.Name)
	}
	return cmd.Args[0], nil
}

func backtick(name string) string { return "`" + strings.ReplaceAll(name, "`", "``") + "`" }

// errStopScript is what a script's \q leaves behind for its includers: stop,
// successfully.
var errStopScript = errors.New(`\q`)

func helpText() string {
	var b strings.Builder
	b.WriteString("SQL statements end with ; and may span lines: SELECT, EXPLAIN SELECT, SHOW TABLES,\n")
	b.WriteString("DESCRIBE t, SHOW INDEXES FROM t. Tab completes keywords, functions, tables,\n")
	b.WriteString("attributes and indexes. Ctrl-C cancels a running statement or clears the line.\n")
	b.WriteString("Meta-commands work in the REPL and in -e, -f and stdin scripts, one per line.\n\n")
	width := 0
	for _, h := range metaHelp {
		if len(h.Usage) > width {
			width = len(h.Usage)
		}
	}
	for _, h := range metaHelp {
		fmt.Fprintf(&b, "  %-*s  %s\n", width, h.Usage, h.Text)
	}
	b.WriteString("\nHistory is kept in $XDG_CONFIG_HOME/ddbsql/history or ~/.ddbsql_history\n")
	b.WriteString("($DDBSQL_HISTORY names another file; set it empty to keep none).\n")
	return b.String()
}

// formatDuration prints an elapsed time like psql's \timing: milliseconds
// with three decimals, and seconds past a second.
func formatDuration(d time.Duration) string {
	ms := float64(d.Microseconds()) / 1000
	if d < time.Second {
		return fmt.Sprintf("%.3f ms", ms)
	}
	return fmt.Sprintf("%.3f ms (%.3f s)", ms, d.Seconds())
}

//go:build unix

package repl

import (
	"fmt"
	"strings"
)

// runMeta runs a \command.
func (r *REPL) runMeta(line string) {
	cmd, err := parseMeta(line)
	if err != nil {
		r.cfg.PrintError(r.err, err)
		return
	}
	switch cmd.Name {
	case "q", "quit":
		r.quit = true
	case "help", "h":
		r.printHelp()
	case "dt":
		r.runSQL("SHOW TABLES")
	case "d":
		if len(cmd.Args) == 0 {
			r.runSQL("SHOW TABLES")
			return
		}
		if t, ok := r.oneTable(cmd); ok {
			r.runSQL("DESCRIBE " + backtick(t))
		}
	case "di":
		if t, ok := r.oneTable(cmd); ok {
			r.runSQL("SHOW INDEXES FROM " + backtick(t))
		}
	case "refresh":
		r.schema.Refresh()
		fmt.Fprintln(r.out, "Table list and table descriptions will be read again.")
	default:
		msg, handled, err := r.set.apply(cmd)
		switch {
		case !handled:
			r.cfg.PrintError(r.err, fmt.Errorf(`unknown command \%s; \help lists the commands`, cmd.Name))
		case err != nil:
			r.cfg.PrintError(r.err, err)
		default:
			fmt.Fprintln(r.out, msg)
		}
	}
}

// oneTable checks that a command got exactly one table name.
func (r *REPL) oneTable(cmd metaCmd) (string, bool) {
	if len(cmd.Args) != 1 {
		r.cfg.PrintError(r.err, fmt.Errorf(`usage: \%s TABLE (quote names with blanks: "my table")`, cmd.Name))
		return "", false
	}
	return cmd.Args[0], true
}

func backtick(name string) string { return "`" + strings.ReplaceAll(name, "`", "``") + "`" }

func (r *REPL) printHelp() {
	var b strings.Builder
	b.WriteString("SQL statements end with ; and may span lines: SELECT, EXPLAIN SELECT, SHOW TABLES,\n")
	b.WriteString("DESCRIBE t, SHOW INDEXES FROM t. Tab completes keywords, functions, tables,\n")
	b.WriteString("attributes and indexes. Ctrl-C cancels a running statement or clears the line.\n\n")
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
	fmt.Fprint(r.out, b.String())
}

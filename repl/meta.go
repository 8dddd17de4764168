package repl

import (
	"fmt"
	"strings"
)

// metaCmd is a parsed backslash command: \name arg….
type metaCmd struct {
	Name string   // without the backslash, lower-cased
	Args []string // quotes removed from "quoted" and `quoted` names
}

// metaHelp lists the meta-commands for \help, in display order.
var metaHelp = []struct{ Usage, Text string }{
	{`\dt`, "list tables"},
	{`\d TABLE`, "describe a table: keys, indexes, item count, size"},
	{`\di TABLE`, "list a table's indexes"},
	{`\format NAME`, "output format: table, csv, tsv, json, ndjson, markdown, parquet, arrow"},
	{`\x [on|off]`, "expanded display (one line per column) for wide rows"},
	{`\timing [on|off]`, "print the elapsed time after each statement"},
	{`\stats off|text|json`, "statement statistics (requests, items read, RCU)"},
	{`\set allow_scan on|off`, "run statements that need a Scan without asking"},
	{`\set consistent on|off`, "strongly consistent reads (not on global indexes)"},
	{`\set memory_limit SIZE`, "what a statement's sorts, groups and joins hold in memory before they spill (e.g. 2GiB)"},
	{`\set`, "show the settings"},
	{`\pager [on|off]`, "page results taller than the screen through $PAGER"},
	{`\refresh`, "forget cached table descriptions and the table list"},
	{`\i FILE`, "run the statements and commands in FILE (relative to the current directory)"},
	{`\ir FILE`, "the same, relative to the file being run"},
	{`\o [FILE]`, "send results to FILE (created or emptied); \\o alone: back to stdout"},
	{`\e`, "edit the last statement in $VISUAL or $EDITOR (else vi), then run it"},
	{`\help`, "this list (also \\?)"},
	{`\q`, "quit (also quit, exit, Ctrl-D)"},
}

// metaNames are the command names completion offers.
var metaNames = []string{"dt", "d", "di", "format", "x", "timing", "stats", "set", "pager", "refresh", "i", "ir", "o", "e", "help", "q"}

// isMetaLine reports whether a line is a meta-command (runs on Enter).
func isMetaLine(line string) bool {
	return strings.HasPrefix(strings.TrimSpace(line), `\`)
}

// isQuitWord reports whether a line is quit or exit (an optional ';' too).
func isQuitWord(line string) bool {
	w := strings.ToLower(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(line), ";")))
	return w == "quit" || w == "exit" || w == `\q`
}

// parseMeta parses a \command line. A trailing ';' is ignored.
func parseMeta(line string) (metaCmd, error) {
	s := strings.TrimSpace(line)
	if !strings.HasPrefix(s, `\`) {
		return metaCmd{}, fmt.Errorf("not a meta-command: %q", line)
	}
	s = strings.TrimSpace(strings.TrimSuffix(s[1:], ";"))
	fields, err := splitArgs(s)
	if err != nil {
		return metaCmd{}, err
	}
	if len(fields) == 0 {
		return metaCmd{}, fmt.Errorf(`empty meta-command; \? lists them`)
	}
	cmd := metaCmd{Name: strings.ToLower(fields[0]), Args: fields[1:]}
	if cmd.Name == "?" {
		cmd.Name = "help"
	}
	return cmd, nil
}

// splitArgs splits on blanks, keeping quoted names ("…" or `…`, with
// blanks or a doubled quote) as one argument without the quotes.
func splitArgs(s string) ([]string, error) {
	var out []string
	for i := 0; i < len(s); {
		if s[i] == ' ' || s[i] == '\t' {
			i++
			continue
		}
		if s[i] == '`' || s[i] == '"' {
			end, open := scanQuoted(s, i)
			if open {
				return nil, fmt.Errorf("unterminated %c in %q", s[i], s)
			}
			out = append(out, unquoteName(s[i:end]))
			i = end
			continue
		}
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != '\t' {
			j++
		}
		out = append(out, s[i:j])
		i = j
	}
	return out, nil
}

// parseSwitch reads on/off (also true/false, 1/0); an empty value toggles.
func parseSwitch(args []string, current bool) (bool, error) {
	if len(args) == 0 {
		return !current, nil
	}
	if len(args) > 1 {
		return current, fmt.Errorf("expected on or off, got %q", strings.Join(args, " "))
	}
	switch strings.ToLower(args[0]) {
	case "on", "true", "1", "yes":
		return true, nil
	case "off", "false", "0", "no":
		return false, nil
	}
	return current, fmt.Errorf("expected on or off, got %q", args[0])
}

func onOff(b bool) string {
	if b {
		return "on"
	}
	return "off"
}

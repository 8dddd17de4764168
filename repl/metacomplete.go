package repl

import (
	"strings"

	"github.com/ddbsql/ddbsql/exec/format"
)

// completeMeta completes a \command line: the command name, then its
// argument (format names, on/off, setting names, table names).
func (c *completer) completeMeta(line string) []suggestion {
	s := strings.TrimLeft(line, " \t")
	fields := strings.Fields(s)
	endsInBlank := strings.HasSuffix(s, " ") || strings.HasSuffix(s, "\t")
	if len(fields) <= 1 && !endsInBlank {
		typed := strings.TrimPrefix(s, `\`)
		var out []suggestion
		for _, h := range metaHelp {
			name := strings.Fields(h.Usage)[0]
			if strings.HasPrefix(name[1:], typed) && !contains(out, name) {
				out = append(out, suggestion{Text: name, Desc: h.Text})
			}
		}
		return out
	}
	word := ""
	if !endsInBlank {
		word = fields[len(fields)-1]
		fields = fields[:len(fields)-1]
	}
	cmd := strings.ToLower(strings.TrimPrefix(fields[0], `\`))
	args := fields[1:]
	var options []string
	switch {
	case len(args) > 0 && cmd != "set":
		return nil
	case cmd == "d" || cmd == "di":
		return c.tables(word)
	case cmd == "format":
		options = format.Names()
	case cmd == "stats":
		options = []string{"off", "text", "json"}
	case cmd == "x" || cmd == "timing" || cmd == "pager":
		options = []string{"on", "off"}
	case cmd == "set" && len(args) == 0:
		options = []string{"allow_scan", "consistent", "expanded", "memory_limit", "pager", "timing"}
	case cmd == "set" && len(args) == 1 && strings.ToLower(args[0]) != "memory_limit":
		options = []string{"on", "off"}
	}
	var out []suggestion
	for _, o := range options {
		if strings.HasPrefix(o, strings.ToLower(word)) {
			out = append(out, suggestion{Text: o})
		}
	}
	return out
}

func contains(s []suggestion, text string) bool {
	for _, x := range s {
		if x.Text == text {
			return true
		}
	}
	return false
}

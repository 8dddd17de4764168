package repl

import (
	"fmt"
	"sort"
	"strings"

	"github.com/ddbsql/ddbsql/exec/format"
	"github.com/ddbsql/ddbsql/exec/session"
	"github.com/ddbsql/ddbsql/exec/spill"
)

// settings are what the meta-commands change; they are copied into the
// session before each statement.
type settings struct {
	Format     string
	Expanded   bool
	Timing     bool
	Stats      session.StatsMode
	AllowScan  bool
	Consistent bool
	Pager      bool
	// MemoryLimit is each statement's --memory-limit in bytes (0: none).
	MemoryLimit int64
}

// settingsOf reads the session's starting settings (from the flags).
func settingsOf(s *session.Session) settings {
	cfg := s.Settings()
	return settings{Format: cfg.Format, Expanded: cfg.FormatOptions.Expanded, Stats: cfg.Stats,
		AllowScan: cfg.Plan.AllowScan, Consistent: cfg.Plan.Consistent, Pager: true, MemoryLimit: cfg.MemoryLimit}
}

// applyTo copies the settings into the session, which refuses a format it
// does not know (\format and --format check it first, so it should not).
func (st settings) applyTo(s *session.Session) error {
	if err := s.SetFormat(st.Format); err != nil {
		return err
	}
	s.SetExpanded(st.Expanded)
	opts := s.Settings().Plan
	opts.AllowScan, opts.Consistent = st.AllowScan, st.Consistent
	s.SetPlanOptions(opts)
	s.SetMemoryLimit(st.MemoryLimit)
	return nil
}

// apply runs a settings command. handled is false for other commands.
func (st *settings) apply(cmd metaCmd) (msg string, handled bool, err error) {
	switch cmd.Name {
	case "format":
		return st.setFormat(cmd.Args)
	case "x":
		v, err := parseSwitch(cmd.Args, st.Expanded)
		if err != nil {
			return "", true, err
		}
		st.Expanded = v
		return "Expanded display is " + onOff(v) + ".", true, nil
	case "timing":
		v, err := parseSwitch(cmd.Args, st.Timing)
		if err != nil {
			return "", true, err
		}
		st.Timing = v
		return "Timing is " + onOff(v) + ".", true, nil
	case "pager":
		v, err := parseSwitch(cmd.Args, st.Pager)
		if err != nil {
			return "", true, err
		}
		st.Pager = v
		return "Pager is " + onOff(v) + ".", true, nil
	case "stats":
		return st.setStats(cmd.Args)
	case "set":
		return st.set(cmd.Args)
	}
	return "", false, nil
}

func (st *settings) setFormat(args []string) (string, bool, error) {
	if len(args) == 0 {
		return "Output format is " + st.Format + ".", true, nil
	}
	name := strings.ToLower(args[0])
	for _, n := range format.Names() {
		if n == name && len(args) == 1 {
			st.Format = n
			return "Output format is " + n + ".", true, nil
		}
	}
	return "", true, fmt.Errorf("unknown format %q; use one of %s", strings.Join(args, " "), strings.Join(format.Names(), ", "))
}

func (st *settings) setStats(args []string) (string, bool, error) {
	if len(args) == 0 {
		return "Statistics are " + string(st.Stats) + ".", true, nil
	}
	switch m := session.StatsMode(strings.ToLower(args[0])); m {
	case session.StatsOff, session.StatsText, session.StatsJSON:
		if len(args) == 1 {
			st.Stats = m
			return "Statistics are " + string(m) + ".", true, nil
		}
	}
	return "", true, fmt.Errorf("expected \\stats off, text or json, got %q", strings.Join(args, " "))
}

// set handles \set NAME on|off and \set alone (list).
func (st *settings) set(args []string) (string, bool, error) {
	vars := map[string]*bool{"allow_scan": &st.AllowScan, "consistent": &st.Consistent,
		"timing": &st.Timing, "expanded": &st.Expanded, "pager": &st.Pager}
	if len(args) == 0 {
		names := make([]string, 0, len(vars))
		for n := range vars {
			names = append(names, n)
		}
		sort.Strings(names)
		var b strings.Builder
		for _, n := range names {
			fmt.Fprintf(&b, "%s = %s\n", n, onOff(*vars[n]))
		}
		fmt.Fprintf(&b, "format = %s\nmemory_limit = %s\nstats = %s", st.Format, memoryLimitText(st.MemoryLimit), st.Stats)
		return b.String(), true, nil
	}
	name := strings.ToLower(args[0])
	if name == "memory_limit" {
		return st.setMemoryLimit(args[1:])
	}
	v, ok := vars[name]
	if !ok {
		return "", true, fmt.Errorf("unknown setting %q; \\set lists them", args[0])
	}
	if len(args) == 1 {
		return "", true, fmt.Errorf("\\set %s needs on or off", name)
	}
	nv, err := parseSwitch(args[1:], *v)
	if err != nil {
		return "", true, err
	}
	*v = nv
	return name + " is " + onOff(nv) + ".", true, nil
}

// setMemoryLimit handles \set memory_limit SIZE: the next statements'
// --memory-limit, in the flag's units.
func (st *settings) setMemoryLimit(args []string) (string, bool, error) {
	if len(args) == 0 {
		return "", true, fmt.Errorf("\\set memory_limit needs a size, such as 512MiB or 4GiB")
	}
	n, err := spill.ParseSize(strings.Join(args, " "))
	if err != nil {
		return "", true, err
	}
	st.MemoryLimit = n
	return "memory_limit is " + memoryLimitText(n) + ".", true, nil
}

func memoryLimitText(n int64) string {
	if n <= 0 {
		return "none"
	}
	return spill.FormatSize(n)
}

package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ddbsql/ddbsql/exec/format"
	"github.com/ddbsql/ddbsql/exec/partition"
	"github.com/ddbsql/ddbsql/exec/session"
	"github.com/ddbsql/ddbsql/parser"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/repl"
)

// partitionFlag is the flag.Value of --partition-by: column names,
// separated by commas.
type partitionFlag struct{ cols *[]string }

func (f partitionFlag) String() string {
	if f.cols == nil {
		return ""
	}
	return strings.Join(*f.cols, ",")
}

func (f partitionFlag) Set(v string) error {
	if len(*f.cols) > 0 {
		return fmt.Errorf("--partition-by %s: --partition-by is given already; list every column in one, separated by commas (--partition-by a,b)", shownValue(v))
	}
	var cols []string
	for _, c := range strings.Split(v, ",") {
		c = strings.TrimSpace(c)
		if c == "" {
			return fmt.Errorf("--partition-by %s: a column name is empty; give names separated by commas, as in --partition-by year,month", shownValue(v))
		}
		for _, prev := range cols {
			if prev == c {
				return fmt.Errorf("--partition-by %s: %s is named twice", shownValue(v), c)
			}
		}
		cols = append(cols, c)
	}
	*f.cols = cols
	return nil
}

// checkPartitioned refuses --partition-by where it cannot write: it needs
// --format parquet and --output DIR, unless it only describes an existing
// layout to EXPLAIN ATHENA/DUCKDB (--athena-source parquet), which
// describesLayout checks once the statements are known.
func checkPartitioned(cfg *config) error {
	if len(cfg.partitionBy) == 0 || (cfg.output == "" && cfg.dialect.source == planner.SourceParquet) {
		return nil
	}
	return checkPartitionedWrite(cfg)
}

// checkPartitionedWrite is what writing a partitioned layout needs.
func checkPartitionedWrite(cfg *config) error {
	if !strings.EqualFold(strings.TrimSpace(cfg.format), "parquet") {
		return fmt.Errorf("--partition-by writes a directory of Parquet files and needs --format parquet (not %s)", strings.ToLower(cfg.format))
	}
	if cfg.output == "" {
		return fmt.Errorf("--partition-by writes a directory of Parquet files: give it with --output DIR (created if it does not exist)")
	}
	return nil
}

// describesLayout says whether --partition-by only names the partition
// columns of an existing Parquet layout for EXPLAIN ATHENA/DUCKDB: no
// --output, --athena-source parquet, and every statement an EXPLAIN ATHENA
// or EXPLAIN DUCKDB (nothing is read or written). Otherwise it returns what
// writing a layout needs, as an error.
func describesLayout(cfg *config, script []repl.Script) (bool, error) {
	if cfg.output != "" || cfg.dialect.source != planner.SourceParquet {
		return false, nil
	}
	for _, s := range script {
		stmts, err := parser.Parse(s.Text)
		if err != nil {
			return false, nil // the statement's own error is reported when it runs
		}
		for _, st := range stmts {
			if e, ok := st.(*parser.Explain); !ok || e.Dialect == "" {
				return false, fmt.Errorf("--partition-by without --output only describes a Parquet layout to EXPLAIN ATHENA and EXPLAIN DUCKDB; to write one, give --format parquet --output DIR")
			}
		}
	}
	return true, nil
}

// exportCheckpointed, when set (by tests), is called after each unit of a
// partitioned export is recorded; an error stops the export there.
// exportUnitRows, when positive (tests), replaces the rows of a unit.
var (
	exportCheckpointed func(units int) error
	exportUnitRows     int64
)

// partitionedExport is a --partition-by run: the directory readied for
// it, and what it continues from.
type partitionedExport struct {
	dir    string
	cols   []string
	state  *partition.State
	writer *partition.Writer
}

// preparePartitioned readies --output DIR for the script, before anything
// is read: a new or empty directory, or one an interrupted run of the
// same command left (which continues). It says on stderr what it found.
func preparePartitioned(cfg *config, script []repl.Script, stderr io.Writer) (*partitionedExport, error) {
	st, err := partition.Prepare(cfg.output, exportCommand(cfg, script))
	if err != nil {
		return nil, err
	}
	switch {
	case st.Complete:
		fmt.Fprintf(stderr, "note: %s holds the complete result of this command already (%d rows in %d files); nothing was read\n", cfg.output, st.Rows, len(st.Files))
	case st.Rows > 0:
		fmt.Fprintf(stderr, "note: continuing the export in %s: %d rows in %d files were written by an earlier run; the result is read again up to there (and checked) and written from there on\n", cfg.output, st.Rows, len(st.Files))
	}
	return &partitionedExport{dir: cfg.output, cols: cfg.partitionBy, state: st}, nil
}

// resultWriter is the session's ResultWriter: one writer for the run, so a
// second result is refused rather than mixed into the layout.
func (p *partitionedExport) resultWriter(opt format.Options) (format.Writer, error) {
	if p.writer == nil {
		p.writer = partition.New(partition.Options{Dir: p.dir, Columns: p.cols, State: p.state, Format: opt,
			UnitRows: exportUnitRows, Checkpointed: exportCheckpointed})
	}
	return p.writer, nil
}

// exportCommand is what makes two runs the same export: the statements,
// the source they read and the flags that shape the rows, their order or
// the layout.
func exportCommand(cfg *config, script []repl.Script) partition.Command {
	var stmts []string
	for _, s := range script {
		stmts = append(stmts, s.Text)
	}
	var src []string
	switch {
	case cfg.demo:
		src = append(src, "--demo")
	case len(cfg.data.sources) > 0:
		for i, s := range cfg.data.sources {
			path := s.Path
			if abs, err := filepath.Abs(path); err == nil {
				path = abs
			}
			d := "--data " + path
			if s.Table != "" {
				d = "--data " + s.Table + "=" + path
			}
			if k := cfg.data.keyArgs[i]; k != "" {
				d += " --key " + k
			} else if cfg.data.defaultArg != "" {
				d += " --key " + cfg.data.defaultArg
			}
			src = append(src, d)
		}
	default:
		src = append(src, "--endpoint-url "+strconv.Quote(cfg.endpointURL), "--region "+strconv.Quote(cfg.region), "--profile "+strconv.Quote(cfg.profile))
	}
	flags := []string{"--format parquet", "--partition-by " + strings.Join(cfg.partitionBy, ",")}
	if cfg.consistent {
		flags = append(flags, "--consistent")
	}
	if cfg.segments > 0 {
		flags = append(flags, "--segments "+strconv.Itoa(cfg.segments))
	}
	return partition.Command{Statement: strings.Join(stmts, "\n"), Source: strings.Join(src, " "), Flags: flags}
}

// partitionedConfig sets up the session for the export: its writer, and
// one Scan segment unless --segments asks for more, since several return
// rows in no fixed order and a resumed run must read them in the same one.
func (p *partitionedExport) partitionedConfig(sc *session.Config) {
	sc.ResultWriter = p.resultWriter
	if sc.Plan.Segments == 0 {
		sc.Plan.Segments = 1
	}
}

// replPartitionError is --partition-by with no statement to run.
var replPartitionError = &diag.Error{Phase: diag.Plan, Code: diag.CodeBadFlag,
	Msg:  "--partition-by exports the result of one statement and needs it on the command line",
	Hint: `give the SELECT with -e "SELECT …" or -f FILE`}

package main

import (
	"flag"
	"fmt"
	"io"
	"math"
	"os"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/ddbsql/ddbsql/exec/format"
	"github.com/ddbsql/ddbsql/exec/session"
	"github.com/ddbsql/ddbsql/exec/spill"
)

// Exit codes.
const (
	exitOK    = 0
	exitError = 1 // a statement failed
	exitUsage = 2 // bad command line
)

// maxSegments bounds --segments. DynamoDB takes up to 1,000,000, but each
// segment is a request and a reader of its own, and a million of them took
// gigabytes of memory to Scan a 40-item table.
const maxSegments = 1024

const segmentsWhy = " (each segment is a concurrent Scan request; more than a few per CPU only adds requests)"

// config is the parsed command line.
type config struct {
	exprs       []string
	files       []string
	endpointURL string
	region      string
	profile     string
	format      string
	output      string             // -o, --output
	partitionBy []string           // --partition-by: --output is a directory
	export      *partitionedExport // set by execute for a --partition-by run
	stats       string
	allowScan   bool
	consistent  bool
	strict      bool
	maxRCU      float64
	maxWCU      float64
	dryRun      bool
	readOnly    bool
	journal     string // --journal FILE
	undo        string // --undo FILE
	statement   int    // --statement N of --undo
	rateLimit   float64
	segments    int
	concurrency int
	timeout     time.Duration
	memoryLimit int64  // --memory-limit, bytes
	tempDir     string // --temp-dir ("": the system's)
	readPrice   float64
	demo        bool
	data        dataFlags
	load        loadFlags   // --load TABLE=PATH
	checkpoint  string      // --checkpoint FILE
	asOf        time.Time   // --as-of (zero: the last window)
	dialect     exportFlags // EXPLAIN ATHENA / DUCKDB
	version     bool
	help        bool
	noColor     bool
	configPath  string  // --config
	pager       *string // the settings file's pager (nil: not set)
}

// repeated collects a flag given several times.
type repeated []string

func (r *repeated) String() string     { return strings.Join(*r, "; ") }
func (r *repeated) Set(v string) error { *r = append(*r, v); return nil }

func newFlagSet(cfg *config, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet("ddbsql", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Var((*repeated)(&cfg.exprs), "e", "run SQL `statements` (repeatable; separate several with ;)")
	fs.Var((*repeated)(&cfg.files), "f", "run the statements in `file` (repeatable)")
	fs.StringVar(&cfg.endpointURL, "endpoint-url", "", "DynamoDB endpoint `URL`, e.g. http://localhost:8000 (default: AWS config, AWS_ENDPOINT_URL_DYNAMODB)")
	fs.StringVar(&cfg.region, "region", "", "AWS `region` (default: AWS config)")
	fs.StringVar(&cfg.profile, "profile", "", "AWS shared config `profile`")
	fs.StringVar(&cfg.format, "format", "table", "output format: `"+strings.Join(format.Names(), "|")+"`")
	fs.StringVar(&cfg.output, "output", "", "write results to `FILE` (created or truncated) instead of stdout; a parquet or arrow file holds one result, renamed into place once complete")
	fs.StringVar(&cfg.output, "o", "", "write results to `FILE`")
	fs.Var(partitionFlag{&cfg.partitionBy}, "partition-by", "write the result as Hive-style partitioned Parquet files under --output DIR, one directory level per column (`COL[,COL]`; needs --format parquet); a stopped run continues when run again")
	fs.StringVar(&cfg.stats, "stats", "", "statement statistics on stderr: `off|text|json` (default: text in the REPL, off otherwise)")
	fs.BoolVar(&cfg.allowScan, "allow-scan", false, "allow statements that read a whole table or index with Scan")
	fs.BoolVar(&cfg.consistent, "consistent", false, "use strongly consistent reads (not possible on global secondary indexes)")
	fs.BoolVar(&cfg.strict, "strict", false, "fail statements that are not one Query or GetItem (Scan, FilterExpression, client-side filter or sort, join not by key)")
	fs.Var(amountFlag{&cfg.maxRCU, "100"}, "max-rcu", "refuse statements estimated to consume more than `N` read capacity units (or of unknown cost), and stop those that do")
	fs.Var(amountFlag{&cfg.maxWCU, "100"}, "max-wcu", "refuse write statements that would consume more than `N` write capacity units, and stop those that do")
	fs.BoolVar(&cfg.dryRun, "dry-run", false, "run the reads of INSERT, REPLACE, UPDATE and DELETE and print the items they would change and the WCU; write nothing")
	fs.BoolVar(&cfg.readOnly, "read-only", false, "refuse INSERT, REPLACE, UPDATE and DELETE")
	fs.StringVar(&cfg.journal, "journal", "", "record the old and new image of every item a write changes in `FILE` (for --undo)")
	fs.StringVar(&cfg.undo, "undo", "", "put back the old images journaled in `FILE` (each only if the item still holds the new image), and exit")
	fs.IntVar(&cfg.statement, "statement", 0, "with --undo, undo only journaled statement `N`")
	fs.Var(amountFlag{&cfg.rateLimit, "50"}, "rate-limit", "pace each statement's reads to `RCU_PER_SECOND`")
	fs.Var(countFlag{&cfg.segments, 0, maxSegments, segmentsWhy}, "segments", "`N` parallel Scan segments (default: about one per GiB, at most 8 per CPU)")
	cfg.concurrency = 8
	fs.Var(countFlag{&cfg.concurrency, 1, math.MaxInt32, ""}, "concurrency", "at most `N` DynamoDB requests in flight per statement (IN lists, join lookups)")
	fs.Var(durationFlag{&cfg.timeout, "timeout"}, "timeout", "give up on a statement after this `duration` (e.g. 30s), planning and DescribeTable/ListTables included")
	cfg.memoryLimit = defaultMemoryLimit()
	fs.Var(sizeFlag{&cfg.memoryLimit, "memory-limit"}, "memory-limit", fmt.Sprintf("what one statement's ORDER BY, GROUP BY, DISTINCT and hash joins may hold in memory before they spill to --temp-dir (`SIZE`: 512MiB, 4GiB, 2GB; default %s: a quarter of this machine's memory)", spill.FormatSize(cfg.memoryLimit)))
	fs.StringVar(&cfg.tempDir, "temp-dir", "", "`DIR` for the spill files of statements past --memory-limit, removed when each statement ends (default: the system's temporary directory, "+os.TempDir()+")")
	cfg.readPrice = session.DefaultReadPrice
	fs.Var(amountFlag{&cfg.readPrice, "0.125"}, "read-price", "on-demand `price` in USD per million read units, for the cost in --stats")
	fs.BoolVar(&cfg.demo, "demo", false, "open the built-in demo tables in an in-process DynamoDB (no AWS account needed)")
	fs.Var(dataFlag{&cfg.data}, "data", "load a DynamoDB export folder, a file of DynamoDB-JSON items or a NoSQL Workbench model into an in-process DynamoDB, read-only (`[name=]PATH`, repeatable); in name=PATH, name is the table's name, unless it holds a / or \\ (then all of it is the path)")
	fs.Var(keyFlag{&cfg.data, &cfg.load}, "key", "key attributes of the --data or --load before it (`PK[,SK]`, types optional: PK:S,SK:N); a --key before any --data or --load applies to every one")
	fs.Var(loadFlag{&cfg.load}, "load", "write every item of a file of DynamoDB-JSON items, an export folder or a CSV file into DynamoDB table TABLE with BatchWriteItem, resumably (`TABLE=PATH`, repeatable); see the README's Bulk load")
	fs.StringVar(&cfg.checkpoint, "checkpoint", "", "checkpoint `FILE` of one --load (default: one per table and source in $XDG_STATE_HOME/ddbsql/load)")
	fs.Var(asOfFlag{&cfg.asOf}, "as-of", "show the --data tables that have incremental exports as of the latest window boundary at or before `TIME` (ISO 8601, or Unix epoch seconds); the default is after the last window")
	fs.Var(exportLocationFlag{&cfg.dialect}, "export-location", "where EXPLAIN ATHENA/DUCKDB find a table's export (`[TABLE=]LOCATION`, repeatable): s3://…/AWSDynamoDB/<id>/data/ for Athena, a path or glob of the files for DuckDB (default for DuckDB: the --data export folder)")
	fs.Var(sourceFlag{&cfg.dialect}, "athena-source", "what EXPLAIN ATHENA/DUCKDB read: `json|ion|parquet` (a DYNAMODB_JSON export, an ION export, or ddbsql --format parquet output; default json)")
	fs.Var(scaleFlag{&cfg.dialect}, "decimal-scale", decimalScaleUsage)
	fs.BoolVar(&cfg.noColor, "no-color", false, "no colours in the REPL (also when NO_COLOR is set)")
	fs.StringVar(&cfg.configPath, "config", "", "settings `file` (default: $DDBSQL_CONFIG, else $XDG_CONFIG_HOME/ddbsql/config.toml or ~/.config/ddbsql/config.toml; \"\" for none)")
	fs.BoolVar(&cfg.version, "version", false, "print the version and exit")
	fs.BoolVar(&cfg.help, "help", false, "show this help")
	fs.BoolVar(&cfg.help, "h", false, "show this help")
	fs.Usage = func() { usage(fs, stderr) }
	return fs
}

func usage(fs *flag.FlagSet, w io.Writer) {
	fmt.Fprint(w, `ddbsql — SQL for Amazon DynamoDB, honest about what every query costs.

Usage:
  ddbsql [flags] -e "SELECT …"        run statements
  ddbsql [flags] -f report.sql        run a file
  echo "SHOW TABLES;" | ddbsql        run statements from stdin
  ddbsql [flags]                      interactive REPL (in a terminal)
  ddbsql --demo                       the same on built-in demo tables, offline
  ddbsql --load t=items.jsonl         write a file's items into table t

Flags:
`)
	printFlags(fs, w)
	fmt.Fprint(w, statementHelp)
}

// statementHelp lists the statements ddbsql runs (see parser.Parse) and
// where the REPL's meta-commands are listed.
const statementHelp = `
Statements (separate several with ;):
  SELECT cols FROM t [JOIN u ON …] [WHERE …] [GROUP BY …] [HAVING …]
         [ORDER BY …] [LIMIT n]       read by key: GetItem, BatchGetItem, Query
  SELECT … FROM t USE INDEX (i)       prefer index i (also FORCE INDEX (i));
  SELECT … FROM t IGNORE INDEX (i)    never read index i
  SELECT … FROM ` + "`t`.`i`" + ` …             read index i itself
  EXPLAIN SELECT …                    the plan and every request, nothing read
  EXPLAIN ANALYZE SELECT …            run it; actual requests, items, RCU, time
  EXPLAIN ATHENA|DUCKDB SELECT …      the tables' DDL over their exports and the
                                      statement in Athena's or DuckDB's SQL
  INSERT INTO t (a, b) VALUES (…)    new items (an existing key is an error);
                                      also INSERT INTO t SELECT …
  REPLACE INTO t (a, b) VALUES (…)    write items whether or not they exist
  UPDATE t SET a = expr, b = NULL WHERE …
                                      change the matching items (NULL removes)
  DELETE FROM t WHERE …               delete the matching items
                                      (see --dry-run, --max-wcu, --read-only)
  DESCRIBE t                          keys, indexes, item count and size
                                      (also DESC t, EXPLAIN t)
  SHOW TABLES                         the tables
  SHOW INDEXES FROM t                 a table's indexes
                                      (also SHOW INDEX, SHOW KEYS; FROM or IN)
A statement that would need a Scan fails unless --allow-scan is given.
In the REPL, \? or \help lists the meta-commands (\d t, \format csv, \q …).

Exit status: 0 success, 1 a statement failed, 2 bad usage.
`

// printFlags lists the flags the way the README spells them: --name for
// long flags, -e for one-letter ones, with a short alias beside its long
// flag (--help, -h).
func printFlags(fs *flag.FlagSet, w io.Writer) {
	aliases := map[string]string{"help": "h", "output": "o"}
	fs.VisitAll(func(f *flag.Flag) {
		for _, short := range aliases {
			if f.Name == short {
				return // printed with its long form
			}
		}
		arg, text := flag.UnquoteUsage(f)
		line := "  " + flagName(f.Name)
		if short, ok := aliases[f.Name]; ok {
			line += ", " + flagName(short)
		}
		if arg != "" {
			line += " " + arg
		}
		if !zeroDefault(f) && !strings.Contains(text, "default") {
			text += fmt.Sprintf(" (default %s)", f.DefValue)
		}
		fmt.Fprintf(w, "%s\n%s", line, wrap(text, "        ", 80))
	})
}

// wrap breaks text into lines of at most width columns (longer words stay
// whole), each starting with indent and ending in a newline.
func wrap(text, indent string, width int) string {
	var b strings.Builder
	n := 0
	for _, word := range strings.Fields(text) {
		switch {
		case n == 0:
			b.WriteString(indent)
			n = utf8.RuneCountInString(indent)
		case n+1+utf8.RuneCountInString(word) > width:
			b.WriteString("\n" + indent)
			n = utf8.RuneCountInString(indent)
		default:
			b.WriteByte(' ')
			n++
		}
		b.WriteString(word)
		n += utf8.RuneCountInString(word)
	}
	b.WriteByte('\n')
	return b.String()
}

// zeroDefault reports whether a flag's default is its type's zero value,
// which the help does not print.
func zeroDefault(f *flag.Flag) bool {
	switch f.DefValue {
	case "", "0", "false", "0s":
		return true
	}
	return false
}

// parseFlags parses args; a usage problem returns exitUsage.
func parseFlags(args []string, stdout, stderr io.Writer) (*config, int, bool) {
	cfg := &config{}
	fs := newFlagSet(cfg, io.Discard)
	if err := fs.Parse(args); err != nil {
		if err == flag.ErrHelp {
			usage(fs, stdout)
			return nil, exitOK, false
		}
		fmt.Fprintf(stderr, "error: %s\n", flagError(err, fs))
		return nil, exitUsage, false
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "error: unexpected argument %q: put SQL after -e, e.g. ddbsql -e \"SELECT …\"\n", fs.Arg(0))
		return nil, exitUsage, false
	}
	if cfg.help {
		usage(fs, stdout)
		return nil, exitOK, false
	}
	if !cfg.version {
		if err := applySettingsFile(fs, cfg, os.LookupEnv); err != nil {
			fmt.Fprintf(stderr, "error: %v\nhint: %s\n", err, err.Hint())
			return nil, exitUsage, false
		}
	}
	if !validFormat(cfg.format) {
		fmt.Fprintf(stderr, "error: unknown --format %q; use one of %s\n", cfg.format, strings.Join(format.Names(), ", "))
		return nil, exitUsage, false
	}
	switch {
	case cfg.maxRCU < 0, cfg.maxWCU < 0, cfg.rateLimit < 0, cfg.segments < 0, cfg.concurrency < 1, cfg.timeout < 0, cfg.readPrice < 0:
		fmt.Fprintln(stderr, "error: --max-rcu, --max-wcu, --rate-limit, --segments, --timeout and --read-price must not be negative, and --concurrency must be at least 1")
		return nil, exitUsage, false
	}
	if (cfg.demo || len(cfg.data.sources) > 0) && (cfg.endpointURL != "" || cfg.profile != "" || cfg.region != "") {
		fmt.Fprintln(stderr, "error: --demo and --data query an in-process DynamoDB; they cannot be combined with --endpoint-url, --profile or --region")
		return nil, exitUsage, false
	}
	if msg := checkLoad(cfg); msg != "" {
		fmt.Fprintf(stderr, "error: %s\n", msg)
		return nil, exitUsage, false
	}
	if !cfg.asOf.IsZero() && len(cfg.data.sources) == 0 {
		fmt.Fprintln(stderr, "error: --as-of selects a point in time of --data full and incremental exports; give them with --data")
		return nil, exitUsage, false
	}
	if err := cfg.data.checkKeys(); len(cfg.load.sources) == 0 && err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return nil, exitUsage, false
	}
	if err := checkPartitioned(cfg); err != nil {
		fmt.Fprintf(stderr, "error: %v\n", err)
		return nil, exitUsage, false
	}
	switch cfg.stats {
	case "", "off", "text", "json":
	default:
		fmt.Fprintf(stderr, "error: unknown --stats %q; use off, text or json\n", cfg.stats)
		return nil, exitUsage, false
	}
	return cfg, exitOK, true
}

func validFormat(name string) bool {
	for _, n := range format.Names() {
		if strings.EqualFold(n, name) {
			return true
		}
	}
	return false
}

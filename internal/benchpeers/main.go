package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
)

// ddbsqlSQL is the statement ddbsql runs; duckdbSQL is the same for DuckDB
// over the export's data files (the %s is their glob).
const (
	ddbsqlSQL = "SELECT status, COUNT(*), SUM(total) FROM orders GROUP BY status"
	duckdbSQL = `SELECT Item.status.S AS status, COUNT(*) AS n,
  CAST(SUM(CAST(Item.total.N AS DECIMAL(38,2))) AS VARCHAR) AS total
FROM read_json('%s', format = 'newline_delimited', compression = 'gzip',
  columns = {Item: 'STRUCT(status STRUCT(S VARCHAR), total STRUCT(N VARCHAR))'})
GROUP BY 1`
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("benchpeers", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sizes := fs.String("items", "200000,1000000", "export sizes to measure, comma-separated")
	files := fs.Int("files", 8, "data files per export")
	dir := fs.String("dir", filepath.Join(os.TempDir(), "ddbsql-peers"), "where exports and the ddbsql binary are kept between runs")
	runs := fs.Int("runs", 1, "runs of each command; the fastest is kept")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 || *runs < 1 || *files < 1 {
		fmt.Fprintln(stderr, "usage: benchpeers [-items N,M] [-files K] [-runs R] [-dir DIR]")
		return 2
	}
	var items []int
	for _, s := range strings.Split(*sizes, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			fmt.Fprintf(stderr, "benchpeers: -items: %q is not a positive number\n", s)
			return 2
		}
		items = append(items, n)
	}
	if err := bench(items, *files, *runs, *dir, stdout, stderr); err != nil {
		fmt.Fprintln(stderr, "benchpeers:", err)
		return 1
	}
	return 0
}

func bench(items []int, files, runs int, dir string, stdout, stderr io.Writer) error {
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	bin := filepath.Join(dir, "ddbsql")
	fmt.Fprintln(stderr, "building ddbsql …")
	if err := command(root, stderr, "go", "build", "-o", bin, "./cmd/ddbsql"); err != nil {
		return err
	}
	peers := filepath.Join(root, "testdata", "peers")
	if err := installDuckDB(peers, stderr); err != nil {
		return err
	}
	var rows []row
	failed := false
	for _, n := range items {
		exp, err := ensureExport(filepath.Join(dir, fmt.Sprintf("orders-%d-%d", n, files)), n, files, stderr)
		if err != nil {
			return err
		}
		r := row{items: n, gzBytes: exp.gzBytes}
		want := exp.answer()
		measure := func(name string, m *measured, parse func([]byte) (answer, error), argv ...string) {
			fmt.Fprintf(stderr, "%d items: %s …\n", n, name)
			res, err := best(runs, root, parse, argv)
			*m = res
			if err == nil {
				err = want.compare(name, res.answer)
			}
			if err != nil {
				fmt.Fprintf(stderr, "%d items: %v\n", n, err)
				m.failed, failed = true, true
			}
		}
		measure("ddbsql", &r.ddbsql, parseCSV, bin, "--data", "orders="+exp.root, "--key", "PK,SK", "--allow-scan", "--format", "csv", "-e", ddbsqlSQL)
		sql := fmt.Sprintf(duckdbSQL, filepath.Join(exp.dir, "data", "*.json.gz"))
		measure("DuckDB, 1 thread", &r.duck1, parseJSONLines, "node", filepath.Join(peers, "query.mjs"), "1", sql)
		all := strconv.Itoa(runtime.NumCPU())
		measure("DuckDB, "+all+" threads", &r.duckAll, parseJSONLines, "node", filepath.Join(peers, "query.mjs"), all, sql)
		rows = append(rows, r)
	}
	printTable(stdout, rows, runtime.NumCPU())
	if failed {
		return fmt.Errorf("a command failed or answered differently (see above)")
	}
	return nil
}

// moduleRoot is the folder of the module's go.mod.
func moduleRoot() (string, error) {
	out, err := exec.Command("go", "env", "GOMOD").Output()
	mod := strings.TrimSpace(string(out))
	if err != nil || mod == "" || mod == os.DevNull {
		return "", fmt.Errorf("run inside the ddbsql module (go env GOMOD: %q, %v)", mod, err)
	}
	return filepath.Dir(mod), nil
}

// command runs a preparation step, its output going to w.
func command(dir string, w io.Writer, name string, args ...string) error {
	c := exec.Command(name, args...)
	c.Dir, c.Stdout, c.Stderr = dir, w, w
	if err := c.Run(); err != nil {
		return fmt.Errorf("%s %s: %w", name, strings.Join(args, " "), err)
	}
	return nil
}

// installDuckDB runs npm ci in testdata/peers unless its node_modules is
// at least as new as the lockfile.
func installDuckDB(peers string, w io.Writer) error {
	lock, err := os.Stat(filepath.Join(peers, "package-lock.json"))
	if err != nil {
		return err
	}
	if st, err := os.Stat(filepath.Join(peers, "node_modules", ".package-lock.json")); err == nil && !st.ModTime().Before(lock.ModTime()) {
		return nil
	}
	fmt.Fprintln(w, "installing DuckDB (npm ci) …")
	return command(peers, w, "npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund", "--loglevel=error")
}

package main

import (
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/ddbsql/ddbsql/internal/exportgen"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("genexport", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o exportgen.Options
	var out string
	fs.IntVar(&o.Items, "items", 100000, "items in the export")
	fs.IntVar(&o.Files, "files", 4, "data files")
	fs.Uint64Var(&o.Seed, "seed", 1, "random seed (same seed, same bytes)")
	fs.StringVar(&o.Table, "table", "orders", "table name in the manifests")
	fs.StringVar(&out, "o", "", "output `DIR` (the export goes to DIR/AWSDynamoDB/<export id>)")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if out == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: genexport [-items N] [-files K] [-seed S] -o DIR")
		return 2
	}
	t, err := exportgen.Write(out, o)
	if err != nil {
		fmt.Fprintln(stderr, "error:", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s: %d items in %d files\n", t.ExportDir, t.Items, o.Files)
	for _, s := range exportgen.Statuses {
		g := t.ByStatus[s]
		fmt.Fprintf(stdout, "%-10s %9d %s\n", s, g.Count, exportgen.FormatCents(g.Cents))
	}
	return 0
}

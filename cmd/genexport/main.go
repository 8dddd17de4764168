package main

import (
	"flag"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/ddbsql/ddbsql/internal/exportgen"
)

func main() { os.Exit(run(os.Args[1:], os.Stdout, os.Stderr)) }

func run(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("genexport", flag.ContinueOnError)
	fs.SetOutput(stderr)
	var o exportgen.Options
	var out string
	var windows, changes int
	fs.IntVar(&o.Items, "items", 100000, "items in the export")
	fs.IntVar(&o.Files, "files", 4, "data files")
	fs.Uint64Var(&o.Seed, "seed", 1, "random seed (same seed, same bytes)")
	fs.StringVar(&o.Table, "table", "orders", "table name in the manifests")
	fs.StringVar(&out, "o", "", "output `DIR` (the export goes to DIR/AWSDynamoDB/<export id>)")
	fs.IntVar(&windows, "windows", 0, "write a full export of an accounts table to DIR/full and this many incremental exports after it to DIR/incr1, DIR/incr2, … (-items items, -changes records per window)")
	fs.IntVar(&changes, "changes", 100, "with -windows: change records per window")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if out == "" || fs.NArg() > 0 {
		fmt.Fprintln(stderr, "usage: genexport [-items N] [-files K] [-seed S] [-windows W [-changes C]] -o DIR")
		return 2
	}
	if windows > 0 {
		return writeChain(out, o, windows, changes, stdout, stderr)
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

// writeChain writes a full export and incremental exports after it and
// prints the --data flags that read them.
func writeChain(out string, o exportgen.Options, windows, changes int, stdout, stderr io.Writer) int {
	table := o.Table
	if table == "orders" {
		table = "accounts"
	}
	ch, err := exportgen.WriteChain(out, exportgen.ChainOptions{Table: table, Seed: o.Seed, Items: o.Items, Windows: windows, Changes: changes, Files: o.Files})
	if err != nil {
		fmt.Fprintln(stderr, "error:", err)
		return 1
	}
	fmt.Fprintf(stdout, "%s: full export, %d items at %s\n", ch.Full.Root, len(ch.States[0]), ch.Full.Time.Format(time.RFC3339))
	for k, w := range ch.Windows {
		fmt.Fprintf(stdout, "%s: %s, %d records in [%s, %s), %d items after\n", w.Root, w.View, len(w.Records), w.From.Format(time.RFC3339), w.To.Format(time.RFC3339), len(ch.States[k+1]))
	}
	return 0
}

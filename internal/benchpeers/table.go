package main

import (
	"fmt"
	"io"
	"text/tabwriter"
	"time"
)

// row is one export size's measurements.
type row struct {
	items                  int
	gzBytes                int64
	ddbsql, duck1, duckAll measured
}

func printTable(w io.Writer, rows []row, cpus int) {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintf(tw, "work\tddbsql wall\tRSS\tDuckDB-1 wall\tRSS\tDuckDB-%d wall\tRSS\tddbsql/DuckDB-1\tddbsql/DuckDB-%d\t\n", cpus, cpus)
	for _, r := range rows {
		fmt.Fprintf(tw, "GROUP BY status, %s items (%s gz)\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t\n",
			count(r.items), mib(r.gzBytes),
			wall(r.ddbsql), mib(r.ddbsql.rss), wall(r.duck1), mib(r.duck1.rss), wall(r.duckAll), mib(r.duckAll.rss),
			ratio(r.ddbsql, r.duck1), ratio(r.ddbsql, r.duckAll))
	}
	tw.Flush()
}

func count(n int) string {
	switch {
	case n%1_000_000 == 0:
		return fmt.Sprintf("%d M", n/1_000_000)
	case n%1000 == 0:
		return fmt.Sprintf("%d k", n/1000)
	}
	return fmt.Sprint(n)
}

func wall(m measured) string {
	if m.failed {
		return "failed"
	}
	return m.wall.Round(10 * time.Millisecond).String()
}

func mib(b int64) string {
	if b < 10<<20 {
		return fmt.Sprintf("%.1f MiB", float64(b)/(1<<20))
	}
	return fmt.Sprintf("%.0f MiB", float64(b)/(1<<20))
}

func ratio(a, b measured) string {
	if a.failed || b.failed || b.wall == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2f×", float64(a.wall)/float64(b.wall))
}

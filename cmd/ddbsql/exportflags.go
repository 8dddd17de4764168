package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/ddbsql/ddbsql/exec/dynamo/offline"
	"github.com/ddbsql/ddbsql/planner"
)

// exportFlags are the flags of EXPLAIN ATHENA and EXPLAIN DUCKDB: where
// each table's export is, which form it has, and the scale numbers are
// read at.
type exportFlags struct {
	locations map[string]string // table → location; "" for every table
	source    string
	scale     int
	scaleSet  bool
}

// exportLocationFlag is --export-location [TABLE=]LOCATION.
type exportLocationFlag struct{ e *exportFlags }

func (f exportLocationFlag) String() string { return "" }

func (f exportLocationFlag) Set(v string) error {
	table, loc := "", v
	// s3://… and paths hold no = before their first /; TABLE= does.
	if name, rest, ok := strings.Cut(v, "="); ok && !strings.ContainsAny(name, `/\:`) {
		if !offline.ValidTableName(name) {
			return fmt.Errorf("--export-location %s: %q is not a valid table name", shownValue(v), name)
		}
		table, loc = name, rest
	}
	if loc == "" {
		return fmt.Errorf("--export-location %s: give the location, e.g. --export-location orders=s3://bucket/exports/AWSDynamoDB/01234-abcd/data/", shownValue(v))
	}
	if f.e.locations == nil {
		f.e.locations = map[string]string{}
	}
	if _, dup := f.e.locations[table]; dup {
		return fmt.Errorf("--export-location %s: a location for %s was given already", shownValue(v), tableOrEvery(table))
	}
	f.e.locations[table] = loc
	return nil
}

func tableOrEvery(table string) string {
	if table == "" {
		return "every table"
	}
	return table
}

// sourceFlag is --athena-source json|ion|parquet.
type sourceFlag struct{ e *exportFlags }

func (f sourceFlag) String() string { return "" }

func (f sourceFlag) Set(v string) error {
	switch s := strings.ToLower(v); s {
	case planner.SourceJSON, planner.SourceIon, planner.SourceParquet:
		f.e.source = s
		return nil
	}
	return fmt.Errorf("--athena-source %s: give json (a DYNAMODB_JSON export), ion (an ION export) or parquet (ddbsql --format parquet output)", shownValue(v))
}

var decimalScaleUsage = fmt.Sprintf("EXPLAIN ATHENA/DUCKDB read numbers as DECIMAL(38, `N`) (default %d)", planner.DefaultDecimalScale)

// scaleFlag is --decimal-scale N.
type scaleFlag struct{ e *exportFlags }

func (f scaleFlag) String() string { return "" }

func (f scaleFlag) Set(v string) error {
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || n > 38 {
		return fmt.Errorf("--decimal-scale %s: give the number of decimals, 0 to 38 (numbers are read as DECIMAL(38, N))", shownValue(v))
	}
	f.e.scale, f.e.scaleSet = n, true
	return nil
}

// dialectOptions are the session's EXPLAIN ATHENA/DUCKDB settings. DuckDB
// runs beside ddbsql, so a --data export folder is where it finds a table
// unless --export-location says otherwise.
func (e *exportFlags) dialectOptions(data []offline.Source, partitionBy []string) planner.DialectOptions {
	d := planner.DialectOptions{Source: e.source, Scale: e.scale, ScaleSet: e.scaleSet, Locations: map[string]string{}}
	if e.source == planner.SourceParquet {
		d.PartitionBy = partitionBy // the layout --partition-by writes (or wrote)
	}
	for t, loc := range e.locations {
		if t != "" {
			d.Locations[t] = loc
		}
	}
	d.DefaultLocation = e.locations[""]
	d.LocalLocations = map[string]string{}
	for _, s := range data {
		if s.Table == "" {
			continue
		}
		if loc := localExportFiles(s.Path); loc != "" {
			d.LocalLocations[s.Table] = loc
		}
	}
	return d
}

// localExportFiles is the glob of an export folder's data files (or the
// data file itself), absolute; "" when path is neither.
func localExportFiles(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return ""
	}
	st, err := os.Stat(abs)
	if err != nil {
		return ""
	}
	if !st.IsDir() {
		return abs
	}
	for _, dir := range []string{filepath.Join(abs, "AWSDynamoDB", "*", "data"), filepath.Join(abs, "data"), abs} {
		if m, _ := filepath.Glob(filepath.Join(dir, "*.json.gz")); len(m) > 0 {
			return filepath.ToSlash(filepath.Join(dir, "*.json.gz"))
		}
	}
	return ""
}

package main

import (
	"github.com/ddbsql/ddbsql/exec/spill"
	"github.com/ddbsql/ddbsql/parser/diag"
)

// fallbackMemory is the memory assumed where the system does not say how
// much it has.
const fallbackMemory = 1 << 30

// defaultMemoryLimit is a quarter of the machine's physical memory: the
// rest is for the Go heap's slack, the output and everything else the
// machine runs. It is rounded down to whole GiB (whole MiB below 2GiB) so
// that the help shows exactly the limit in force.
func defaultMemoryLimit() int64 {
	total := physicalMemory()
	if total <= 0 {
		total = fallbackMemory
	}
	q := total / 4
	if q >= 2<<30 {
		return q &^ (1<<30 - 1)
	}
	return q &^ (1<<20 - 1)
}

// sizeFlag is a size in bytes with an optional unit (--memory-limit).
type sizeFlag struct {
	p    *int64
	name string // the flag's name, for its messages
}

func (f sizeFlag) String() string {
	if f.p == nil {
		return "0"
	}
	return spill.FormatSize(*f.p)
}

func (f sizeFlag) Set(s string) error {
	v, err := spill.ParseSize(s)
	if err != nil {
		// ParseSize's message says what to write instead.
		return &diag.Error{Phase: diag.Config, Code: diag.CodeBadFlag, Pos: diag.Pos{Source: flagName(f.name) + " " + shownValue(s)},
			Msg: err.Error()}
	}
	*f.p = v
	return nil
}

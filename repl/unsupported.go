//go:build !unix

package repl

import (
	"context"
	"fmt"
)

// Run reports that the REPL needs a Unix terminal (it drives termios
// directly); statements still run from -e, -f and stdin.
func Run(ctx context.Context, cfg Config) int {
	fmt.Fprintln(cfg.Err, "error: the interactive REPL needs a Unix terminal; run statements with -e \"…\", -f FILE, or pipe them on stdin")
	return 2
}

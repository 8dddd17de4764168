//go:build unix

package repl

import (
	"context"
	"fmt"
	"math"
	"strings"

	"golang.org/x/sys/unix"

	"github.com/ddbsql/ddbsql/exec/write"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/ddblimits"
	"github.com/ddbsql/ddbsql/planner/plural"
)

// scanQuestion is what the REPL asks before a statement that needs a Scan:
// the estimate comes from DescribeTable (DynamoDB refreshes those counts
// about every six hours). Reads cost one unit per 4 KB, half that when
// eventually consistent. A new or freshly loaded table reports 0 items
// until then, so the question says the cost is unknown rather than ~0.
func scanQuestion(est planner.ScanEstimate, consistent bool) string {
	what, target := "table", est.Table
	if est.Index != "" {
		what, target = "index", est.Table+" (index "+est.Index+")"
	}
	if why := est.UnknownReason(); why != "" {
		return fmt.Sprintf("Scan %s: reads the whole %s (unknown cost: %s). Run it? [y/N] ", target, what, why)
	}
	perUnit := 0.5
	if consistent {
		perUnit = 1
	}
	rcu := int64(math.Ceil(float64(est.SizeBytes) / ddblimits.ReadUnitBytes * perUnit))
	return fmt.Sprintf("Scan %s: reads the whole %s (~%s, ~%.1f MB, ~%d RCU). Run it? [y/N] ",
		target, what, plural.Of(int(est.ItemCount), "item"), float64(est.SizeBytes)/1e6, rcu)
}

// isYes reads an answer to a [y/N] question.
func isYes(answer string) bool {
	a := strings.ToLower(strings.TrimSpace(answer))
	return a == "y" || a == "yes"
}

// readAnswer reads one line from the terminal in cooked mode. It gives up
// (false) when ctx ends, e.g. on Ctrl-C, or at end of input.
func readAnswer(ctx context.Context, fd int) (string, bool) {
	var line []byte
	buf := make([]byte, 256)
	for ctx.Err() == nil {
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		n, err := unix.Poll(fds, 100)
		if err == unix.EINTR || n == 0 {
			continue
		}
		if err != nil {
			return "", false
		}
		m, err := unix.Read(fd, buf)
		if err == unix.EINTR || err == unix.EAGAIN {
			continue
		}
		if err != nil || m == 0 {
			return string(line), len(line) > 0
		}
		line = append(line, buf[:m]...)
		if i := strings.IndexByte(string(line), '\n'); i >= 0 {
			return string(line[:i]), true
		}
	}
	return "", false
}

// writeQuestion asks before a write statement that changes several items.
func writeQuestion(c write.Confirmation) string {
	verb := map[planner.WriteKind]string{planner.WriteInsert: "inserts", planner.WriteReplace: "writes",
		planner.WriteUpdate: "changes", planner.WriteDelete: "deletes"}[c.Kind]
	return fmt.Sprintf("%s %s %s in %s (~%s WCU), e.g. %s. Go ahead? [y/N] ",
		c.Kind, verb, plural.Of(c.Items, "item"), c.Table, planner.FormatRCU(c.WCU), c.Keys[0])
}

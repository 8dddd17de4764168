package planner

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/ddbsql/ddbsql/planner/ddblimits"
	"github.com/ddbsql/ddbsql/planner/plural"
)

// Estimate is what the planner expects the reads of a plan node to cost,
// from DescribeTable's ItemCount and sizes. Every printed figure is meant to
// be true, in one of three ways:
//
//   - Plain figures are estimates from DescribeTable's averages, assuming
//     the keys asked for exist: exact when every item has the same size.
//   - AtLeast marks lower bounds. A Query's partition size is unknown, and
//     a lookup or fetch depends on how many rows reach it, so a Query
//     counts one item, a join step one lookup (which may find nothing) and
//     a fetch one key per row it is sure to receive: they hold whenever the
//     read finds something and a row reaches each step, and a Note says so
//     where it is not obvious. RCU bounds count one 4 KB unit per request
//     or item, which DynamoDB charges even for a missing item or an empty
//     page.
//   - Unknown lists reads DescribeTable has no figures for: it reports 0
//     items (or 0 bytes for some items) for a new or freshly loaded table
//     until its refresh, about every six hours. Such a Scan could read
//     anything, so it has no estimate, only a bound when a Limit with
//     nothing filtered caps it (UnknownRead.Bounded). The figures above
//     exclude unknown reads.
type Estimate struct {
	Requests int64
	Items    int64
	RCU      float64
	AtLeast  bool
	// Stale is what DescribeTable reports when its figures are unusable
	// ("0 items", "0 bytes for 12 items") for a read that still has a lower
	// bound (GetItem, BatchGetItem, Query, lookups, fetches): its item size
	// is unknown, so the bound counts one 4 KB unit per item.
	Stale string
	// Note qualifies a lower bound that depends on rows from another read
	// (printed after the figures, with Stale).
	Note string
	// Unknown are the reads without an estimate.
	Unknown []UnknownRead
}

// UnknownRead is a read whose cost DescribeTable's figures cannot give.
type UnknownRead struct {
	// Why says so on the read's own EXPLAIN line ("DescribeTable reports
	// 0 items"); Total says it in the plan's total, naming the table.
	Why, Total string
	// Derived: the read is unknown because the read it follows is (a
	// fetch after it); the total does not repeat its reason.
	Derived bool
	// Bounded: whatever the table holds, the read takes at most MaxItems
	// items and MaxRCU capacity (a Scan with a Limit and no filter).
	Bounded  bool
	MaxItems int64
	MaxRCU   float64
}

// countsLag is why DescribeTable's counts can be wrong.
const countsLag = "counts lag by up to six hours"

// Add sums two estimates.
func (e Estimate) Add(o Estimate) Estimate {
	sum := Estimate{Requests: e.Requests + o.Requests, Items: e.Items + o.Items, RCU: e.RCU + o.RCU,
		AtLeast: e.AtLeast || o.AtLeast, Stale: e.Stale, Unknown: append(append([]UnknownRead(nil), e.Unknown...), o.Unknown...)}
	if sum.Stale == "" {
		sum.Stale = o.Stale
	}
	return sum
}

// IsUnknown reports whether some read of the estimate has no estimate.
func (e Estimate) IsUnknown() bool { return len(e.Unknown) > 0 }

// Bound is the most the unknown reads can cost: the sum of their bounds
// and the estimate of the others; ok is false when an unknown read has no
// bound.
func (e Estimate) Bound() (rcu float64, ok bool) {
	_, rcu, ok = e.unknownBound()
	return e.RCU + rcu, ok
}

// UnknownReason explains, for messages, why the estimate is unknown:
// "DescribeTable reports 0 items for table app; counts lag by up to six
// hours" ("" when it is known).
func (e Estimate) UnknownReason() string {
	var whys []string
	for _, u := range e.Unknown {
		if !u.Derived && !contains(whys, u.Total) {
			whys = append(whys, u.Total)
		}
	}
	if len(whys) == 0 {
		return ""
	}
	return strings.Join(whys, ", ") + "; " + countsLag
}

// String renders the estimate of one read (an EXPLAIN "estimate:" line).
func (e Estimate) String() string {
	if !e.IsUnknown() {
		var notes []string
		if e.Note != "" {
			notes = append(notes, e.Note)
		}
		if e.Stale != "" {
			notes = append(notes, "item size unknown: DescribeTable reports "+e.Stale+"; "+countsLag)
		}
		if len(notes) == 0 {
			return e.figures()
		}
		return e.figures() + " (" + strings.Join(notes, "; ") + ")"
	}
	var whys []string
	lag := false
	for _, u := range e.Unknown {
		whys = append(whys, u.Why)
		lag = lag || !u.Derived
	}
	why := strings.Join(whys, ", ")
	if lag {
		why += "; " + countsLag
	}
	return e.unknownText(why)
}

// TotalString renders the estimated total of a plan: the sum, and the
// unknown reads by table.
func (e Estimate) TotalString() string {
	if !e.IsUnknown() {
		return e.figures()
	}
	return e.unknownText(e.UnknownReason())
}

func (e Estimate) unknownText(why string) string {
	s := "unknown — " + why
	if e.Requests != 0 || e.Items != 0 || e.RCU != 0 {
		known := e
		known.AtLeast = true
		s = known.figures() + ", plus " + s
	}
	if items, rcu, ok := e.unknownBound(); ok {
		s += fmt.Sprintf("; LIMIT bounds it: at most %s, %s RCU (items are at most 400 KB)", plural.Of(items, "item"), FormatRCU(rcu))
	}
	return s
}

// unknownBound sums the bounds of the unknown reads (ok only when each
// has one).
func (e Estimate) unknownBound() (items int64, rcu float64, ok bool) {
	for _, u := range e.Unknown {
		if !u.Bounded {
			return 0, 0, false
		}
		items += u.MaxItems
		rcu += u.MaxRCU
	}
	return items, rcu, true
}

func (e Estimate) figures() string {
	ge := ""
	if e.AtLeast {
		ge = "≥"
	}
	return fmt.Sprintf("%s%s, %s%s, %s%s RCU", ge, plural.Of(e.Requests, "request"), ge, plural.Of(e.Items, "item"), ge, FormatRCU(e.RCU))
}

// FormatRCU prints capacity units without float noise.
func FormatRCU(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

const (
	readUnitBytes = ddblimits.ReadUnitBytes
	pageBytes     = ddblimits.PageBytes
	// maxItemUnits is the most 4 KB units one item can take: items are at
	// most 400 KB, names and values included.
	maxItemUnits = ddblimits.ItemBytes / readUnitBytes
)

// readFactor is the capacity a 4 KB read unit costs: ½ eventually
// consistent, 1 strongly consistent.
func readFactor(consistent bool) float64 {
	if consistent {
		return 1
	}
	return 0.5
}

// stale says what DescribeTable reports when its figures cannot estimate
// a read ("" when they can): no items, or no bytes for some items, which
// is what a new or freshly loaded table shows until DynamoDB refreshes the
// figures.
func stale(items, size int64) string {
	switch {
	case items <= 0:
		return "0 items"
	case size <= 0:
		return "0 bytes for " + plural.Of(items, "item")
	}
	return ""
}

// staleFor says the same of a named table or index ("table app", "index
// GSI1 of app"): "0 items for table app", "0 bytes for the 12 items of
// table app".
func staleFor(items, size int64, target string) string {
	if items <= 0 {
		return "0 items for " + target
	}
	if items == 1 {
		return "0 bytes for the 1 item of " + target
	}
	return fmt.Sprintf("0 bytes for the %d items of %s", items, target)
}

// unitsFor rounds a read of n bytes up to whole 4 KB units (at least one).
func unitsFor(size float64) float64 {
	return math.Max(1, math.Ceil(size/readUnitBytes))
}

// TotalEstimate sums the estimates of every DynamoDB read in the plan:
// each Access, each Fetch and each LookupJoin (its lookups and the fetch
// after them).
func TotalEstimate(p *Plan) Estimate {
	var total Estimate
	Walk(p.Root, func(n Node, _ int) bool {
		switch t := n.(type) {
		case *Access:
			total = total.Add(t.Estimate)
		case *LookupJoin:
			total = total.Add(t.Estimate)
			if t.Fetch != nil {
				total = total.Add(t.Fetch.Estimate)
			}
		case *Fetch:
			total = total.Add(t.Estimate)
		case *KeyedSemiJoin:
			total = total.Add(t.Lookup.Estimate)
			if t.Lookup.Fetch != nil {
				total = total.Add(t.Lookup.Fetch.Estimate)
			}
		case *KeyedFanout:
			total = total.Add(t.Lookup.Estimate)
			if t.Lookup.Fetch != nil {
				total = total.Add(t.Lookup.Fetch.Estimate)
			}
		}
		return true
	})
	return total
}

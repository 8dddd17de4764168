package planner

import (
	"fmt"
	"math"
	"strconv"
)

// Estimate is what the planner expects a read to cost, from DescribeTable's
// ItemCount and sizes (DynamoDB refreshes those about every six hours).
// AtLeast marks lower bounds: a Query's partition size is unknown.
type Estimate struct {
	Requests int64
	Items    int64
	RCU      float64
	AtLeast  bool
}

// Add sums two estimates.
func (e Estimate) Add(o Estimate) Estimate {
	return Estimate{Requests: e.Requests + o.Requests, Items: e.Items + o.Items, RCU: e.RCU + o.RCU, AtLeast: e.AtLeast || o.AtLeast}
}

func (e Estimate) String() string {
	ge := ""
	if e.AtLeast {
		ge = "≥"
	}
	return fmt.Sprintf("%s%s, %s%s, %s%s RCU", ge, plural(e.Requests, "request"), ge, plural(e.Items, "item"), ge, FormatRCU(e.RCU))
}

func plural(n int64, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return strconv.FormatInt(n, 10) + " " + word + "s"
}

// FormatRCU prints capacity units without float noise.
func FormatRCU(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

const (
	readUnitBytes = 4096
	pageBytes     = 1 << 20
)

// readFactor is the capacity a 4 KB read unit costs: ½ eventually
// consistent, 1 strongly consistent.
func readFactor(consistent bool) float64 {
	if consistent {
		return 1
	}
	return 0.5
}

// avgItemBytes is the table's (or index's) average item size, or 1 KB when
// DescribeTable has no figures yet (a new table or a local server).
func avgItemBytes(items, bytes int64) float64 {
	if items <= 0 || bytes <= 0 {
		return 1024
	}
	return float64(bytes) / float64(items)
}

// unitsFor rounds a read of n bytes up to whole 4 KB units (at least one).
func unitsFor(bytes float64) float64 {
	return math.Max(1, math.Ceil(bytes/readUnitBytes))
}

// estimateAccess estimates one DynamoDB leaf.
func estimateAccess(a *Access, t *TableDef, consistent bool) Estimate {
	items, bytes := t.ItemCount, t.SizeBytes
	if ix := t.Index(a.Index); ix != nil {
		items, bytes = ix.ItemCount, ix.SizeBytes
	}
	avg := avgItemBytes(items, bytes)
	f := readFactor(consistent)
	switch a.Op {
	case OpGetItem:
		n := int64(len(a.Gets))
		return Estimate{Requests: n, Items: n, RCU: float64(n) * unitsFor(avg) * f}
	case OpBatchGetItem:
		var keys int64
		for _, b := range a.Batches {
			for _, ka := range b.RequestItems {
				keys += int64(len(ka.Keys))
			}
		}
		return Estimate{Requests: int64(len(a.Batches)), Items: keys, RCU: float64(keys) * unitsFor(avg) * f}
	case OpQuery:
		var e Estimate
		for _, q := range a.Queries {
			per := Estimate{Requests: 1, Items: 1, RCU: unitsFor(avg) * f, AtLeast: true}
			switch {
			case q.Limit != nil:
				n := int64(*q.Limit)
				// DynamoDB stops a page at 1 MB, so a Limit beyond a page's
				// worth takes more requests (each asking for the rest).
				read := float64(n) * avg
				per = Estimate{Requests: max(1, int64(math.Ceil(read/pageBytes))), Items: n, RCU: unitsFor(read) * f, AtLeast: false}
			case a.singleItem:
				per.AtLeast = false
			}
			e = e.Add(per)
		}
		return e
	case OpScan:
		read := float64(bytes)
		n := items
		if len(a.Scans) > 0 && a.Scans[0].Limit != nil {
			lim := int64(*a.Scans[0].Limit) * int64(len(a.Scans))
			if items <= 0 || lim < n {
				n = lim
				read = float64(lim) * avg
			}
		}
		pages := int64(math.Ceil(read / pageBytes))
		return Estimate{Requests: max(pages, int64(len(a.Scans)), 1), Items: n, RCU: math.Max(f, math.Ceil(read/readUnitBytes)*f)}
	}
	return Estimate{}
}

// TotalEstimate sums the estimates of every DynamoDB read in the plan.
// Lookups and fetches depend on how many rows reach them, so they only add
// "at least" what one request costs.
func TotalEstimate(p *Plan) Estimate {
	var total Estimate
	var walk func(Node)
	walk = func(n Node) {
		switch t := n.(type) {
		case *Access:
			total = total.Add(t.Estimate)
		case *LookupJoin:
			total = total.Add(Estimate{AtLeast: true})
		case *Fetch:
			total = total.Add(Estimate{AtLeast: true})
		}
		for _, in := range n.Inputs() {
			walk(in)
		}
	}
	walk(p.Root)
	return total
}

package planner

import "math"

// estimateAccess estimates one DynamoDB leaf from the figures DescribeTable
// reports for what it reads (the table, or the index it names).
func estimateAccess(a *Access, t *TableDef, consistent bool) Estimate {
	items, bytes := t.ItemCount, t.SizeBytes
	target := "table " + t.Name
	if ix := t.Index(a.Index); ix != nil {
		items, bytes = ix.ItemCount, ix.SizeBytes
		target = "index " + ix.Name + " of " + t.Name
	}
	f := readFactor(consistent)
	if why := stale(items, bytes); why != "" {
		return estimateStale(a, f, why, staleFor(items, bytes, target))
	}
	avg := float64(bytes) / float64(items)
	switch a.Op {
	case OpGetItem:
		n := int64(len(a.Gets))
		return Estimate{Requests: n, Items: n, RCU: float64(n) * unitsFor(avg) * f}
	case OpBatchGetItem:
		keys := batchKeyCount(a)
		return Estimate{Requests: int64(len(a.Batches)), Items: keys, RCU: float64(keys) * unitsFor(avg) * f}
	case OpQuery:
		var e Estimate
		for _, q := range a.Queries {
			// At least one page with one item: the partition's size is
			// unknown, and an item can be smaller than the average.
			per := Estimate{Requests: 1, Items: 1, RCU: f, AtLeast: true}
			switch {
			case q.Limit != nil:
				n := int64(*q.Limit)
				// DynamoDB stops a page at 1 MB, so a Limit beyond a page's
				// worth takes more requests (each asking for the rest).
				read := float64(n) * avg
				per = Estimate{Requests: max(1, int64(math.Ceil(read/pageBytes))), Items: n, RCU: unitsFor(read) * f}
			case a.singleItem:
				per = Estimate{Requests: 1, Items: 1, RCU: unitsFor(avg) * f}
			}
			e = e.Add(per)
		}
		return e
	case OpScan:
		read := float64(bytes)
		n := items
		if lim, ok := scanLimit(a); ok && lim < n {
			n = lim
			read = float64(lim) * avg
		}
		pages := int64(math.Ceil(read / pageBytes))
		return Estimate{Requests: max(pages, int64(len(a.Scans)), 1), Items: n, RCU: math.Max(f, math.Ceil(read/readUnitBytes)*f)}
	}
	return Estimate{}
}

// estimateStale is the estimate of a read when DescribeTable reports no
// usable figures (why): a lower bound of one 4 KB unit per item or page
// for key reads and Queries, and for a Scan no estimate at all, only the
// bound its Limit proves.
func estimateStale(a *Access, f float64, why, whyTotal string) Estimate {
	on := ""
	if a.Index != "" {
		on = " for index " + a.Index
	}
	switch a.Op {
	case OpGetItem:
		n := int64(len(a.Gets))
		return Estimate{Requests: n, Items: n, RCU: float64(n) * f, AtLeast: true, Stale: why + on}
	case OpBatchGetItem:
		keys := batchKeyCount(a)
		return Estimate{Requests: int64(len(a.Batches)), Items: keys, RCU: float64(keys) * f, AtLeast: true, Stale: why + on}
	case OpQuery:
		n := int64(len(a.Queries))
		return Estimate{Requests: n, Items: n, RCU: float64(n) * f, AtLeast: true, Stale: why + on}
	}
	u := UnknownRead{Why: "DescribeTable reports " + why + on, Total: "DescribeTable reports " + whyTotal}
	if lim, ok := scanLimit(a); ok {
		// The Limit caps the items each segment reads, over all its pages
		// (exec asks each next page only for the rest), and a Limit is set
		// only when nothing is filtered. An item is at most 400 KB, and a
		// page's cost is its items' sizes rounded up once, so a page costs
		// at most maxItemUnits per item it read; a page that reads nothing
		// costs one unit, and a Scan without a filter returns at most one
		// such page per segment (the one after a page that ended at 1 MB
		// exactly at the segment's end).
		segments := int64(len(a.Scans))
		u.Bounded, u.MaxItems = true, lim
		u.MaxRCU = f * float64(maxItemUnits*lim+segments)
	}
	return Estimate{Unknown: []UnknownRead{u}}
}

// scanLimit is the most items a Scan reads when its requests carry a Limit:
// the Limit times the segments.
func scanLimit(a *Access) (int64, bool) {
	if len(a.Scans) == 0 || a.Scans[0].Limit == nil {
		return 0, false
	}
	return int64(*a.Scans[0].Limit) * int64(len(a.Scans)), true
}

func batchKeyCount(a *Access) int64 {
	var keys int64
	for _, b := range a.Batches {
		for _, ka := range b.RequestItems {
			keys += int64(len(ka.Keys))
		}
	}
	return keys
}

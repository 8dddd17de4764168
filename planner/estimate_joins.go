package planner

import (
	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/ddbsql/ddbsql/planner/ddblimits"
)

// Estimates of the reads that depend on rows from another read: a Fetch
// (BatchGetItem of the full items after an index that does not project
// enough) and a LookupJoin's lookups.

// estimateFetch estimates a Fetch from the estimate of the read that feeds
// it: one key per row that read returns, at most 100 keys a request, each
// item billed rounded up to 4 KB on its own (BatchGetItem's rule).
// filtered says the read drops items with a FilterExpression, so fewer
// rows than items read may arrive: the estimate then counts one row.
// A lower bound says on what it depends (note).
func estimateFetch(f *Fetch, t *TableDef, in Estimate, filtered bool, note string) Estimate {
	factor := readFactor(f.Consistent)
	if in.IsUnknown() {
		// As many keys as the read returns, which nobody knows; a bound
		// on the read bounds the keys, each at most 400 KB.
		u := UnknownRead{Why: "one key per row of the read below, whose count is unknown", Derived: true}
		if _, _, ok := in.unknownBound(); ok {
			keys := in.Items
			for _, r := range in.Unknown {
				keys += r.MaxItems
			}
			u.Bounded, u.MaxItems, u.MaxRCU = true, keys, float64(keys*maxItemUnits)*factor
		}
		return Estimate{Unknown: []UnknownRead{u}}
	}
	keys, atLeast := in.Items, in.AtLeast
	if filtered {
		keys, atLeast = min(keys, 1), true
	}
	e := Estimate{Requests: ceilDiv(keys, ddblimits.BatchGetKeys), Items: keys, RCU: float64(keys) * factor, AtLeast: atLeast}
	if atLeast {
		e.Note = note
	}
	if why := stale(t.ItemCount, t.SizeBytes); why != "" {
		e.AtLeast, e.Stale = true, why
	} else if !atLeast {
		e.RCU = float64(keys) * unitsFor(float64(t.SizeBytes)/float64(t.ItemCount)) * factor
	}
	return e
}

// estimateLookup estimates a LookupJoin's lookups: how many rows reach the
// join and how many distinct values they hold is unknown, so it is a lower
// bound of one lookup (one BatchGetItem key, or one Query of one page) for
// at least one row: one request and one 4 KB unit, which DynamoDB charges
// even when the lookup finds nothing; and no item, since whether a lookup
// finds one is the join's question.
func estimateLookup(lj *LookupJoin, t *TableDef) Estimate {
	consistent := false
	switch {
	case lj.Batch != nil:
		consistent = aws.ToBool(lj.Batch.ConsistentRead)
	case lj.Query != nil:
		consistent = aws.ToBool(lj.Query.ConsistentRead)
	}
	items, bytes := t.ItemCount, t.SizeBytes
	if ix := t.Index(lj.Index); ix != nil {
		items, bytes = ix.ItemCount, ix.SizeBytes
	}
	e := Estimate{Requests: 1, RCU: readFactor(consistent), AtLeast: true, Stale: stale(items, bytes),
		Note: "if a lookup value reaches the join: one lookup per distinct value"}
	if e.Stale != "" && lj.Index != "" {
		e.Stale += " for index " + lj.Index
	}
	return e
}

func ceilDiv(n, d int64) int64 { return (n + d - 1) / d }

// lookupFound is what a lookup's fetch starts from: one item found.
var lookupFound = Estimate{Items: 1, AtLeast: true}

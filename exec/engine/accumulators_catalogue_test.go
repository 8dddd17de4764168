package engine

import (
	"testing"

	"github.com/ddbsql/ddbsql/planner/funcs"
)

// TestAccumulatorsAreTheCataloguesAggregates proves that no aggregate is
// missing on either side: every aggregate of the planner's catalogue has an
// accumulator, and every accumulator is a catalogued aggregate.
func TestAccumulatorsAreTheCataloguesAggregates(t *testing.T) {
	for _, f := range funcs.All() {
		if _, ok := accumulators[f.Name]; ok != f.Aggregate {
			t.Errorf("%s(): aggregate in the catalogue %v, has an accumulator %v", f.Name, f.Aggregate, ok)
		}
	}
	for name := range accumulators {
		if f, ok := funcs.Lookup(name); !ok || f.Name != name || !f.Aggregate {
			t.Errorf("%s() has an accumulator but is no aggregate of the catalogue (planner/funcs)", name)
		}
	}
}

package main

import (
	"fmt"

	"github.com/ddbsql/ddbsql/planner/value"
)

// validate checks what DynamoDB would: every item has its key attributes
// with the declared types, keys are unique, index keys have their types.
func validate(ts []*table) error {
	names := map[string]bool{}
	for _, t := range ts {
		if names[t.Name] {
			return fmt.Errorf("table %s defined twice", t.Name)
		}
		names[t.Name] = true
		seen := map[string]bool{}
		for i, it := range t.Items {
			k := ""
			for _, kk := range []key{t.PK, t.SK} {
				if kk.Name == "" {
					continue
				}
				v := it.Attr(kk.Name)
				if v.Kind().String() != kk.Type {
					return fmt.Errorf("%s item %d: key %s is %s, want %s", t.Name, i, kk.Name, v.Kind(), kk.Type)
				}
				k += kk.Name + "=" + v.Text() + "\x00"
			}
			if seen[k] {
				return fmt.Errorf("%s item %d: duplicate key %q", t.Name, i, k)
			}
			seen[k] = true
			for _, ix := range append(append([]index{}, t.GSIs...), t.LSIs...) {
				for _, kk := range []key{ix.PK, ix.SK} {
					if v := it.Attr(kk.Name); kk.Name != "" && v.Kind() != value.Missing && v.Kind().String() != kk.Type {
						return fmt.Errorf("%s item %d: index %s key %s is %s, want %s", t.Name, i, ix.Name, kk.Name, v.Kind(), kk.Type)
					}
				}
			}
		}
	}
	return nil
}

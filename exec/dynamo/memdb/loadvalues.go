package memdb

import (
	"context"

	"github.com/ddbsql/ddbsql/planner/ddblimits"
	"github.com/ddbsql/ddbsql/planner/value"
)

// Bulk loading from values: items that were decoded straight into
// value.Value (M values) are checked and stored without first being built
// as SDK attribute values and converted back. The checks and messages are
// PutItem's: scalars, maps and lists are checked in place; sets (rare, and
// whose messages list their members in request order) take the SDK path,
// so what is accepted, how it is stored and what is said stay the same.

// NamedValue is one top-level attribute of an item given to PutValues.
type NamedValue struct {
	Name  string
	Value value.Value
}

// PutValues is PutItems for items given as attribute lists (names unique,
// in any order). Numbers must be
// canonical, as value.Num and value.CanonicalNumber make them (the stored
// text is the given one); set members may be in any order.
func (l *Loader) PutValues(ctx context.Context, table string, items [][]NamedValue) (n int, err error) {
	if err := l.db.beginWrite(ctx, "PutItems", table, bypassReadOnly); err != nil {
		return 0, wrapOp("PutItem", err)
	}
	t, err := l.db.table(table, dataLookup)
	if err != nil {
		return 0, wrapOp("PutItem", err)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	for i, item := range items {
		a, size, err := checkNewValueItem(item)
		if err == nil {
			err = t.checkItem(a)
		}
		if err != nil {
			return i, wrapOp("PutItem", err)
		}
		t.store(a, size)
	}
	return len(items), nil
}

// checkNewValueItem is checkNewItem for an attribute list.
func checkNewValueItem(item []NamedValue) (attrs, int, error) {
	return checkNewValueItemSkipping(item, Skipped{})
}

// checkNewValueItemSkipping is checkNewValueItem for an item some of whose
// attributes were checked and sized without being decoded (sk).
func checkNewValueItemSkipping(item []NamedValue, sk Skipped) (attrs, int, error) {
	out := make(attrs, len(item))
	for i, nv := range item {
		out[i] = attr{nv.Name, nv.Value}
	}
	sortAttrs(out)
	for i := range out {
		if i > 0 && out[i].name == out[i-1].name {
			return nil, 0, validationError("Duplicate attribute name " + out[i].name + " in the item")
		}
		if msg := checkValue(out[i].val); msg != "" {
			return nil, 0, validationError(msg)
		}
	}
	for i := range out {
		v, _, msg := storedValue(out[i].val)
		if msg != "" {
			return nil, 0, validationError(msg)
		}
		out[i].val = v
	}
	size := itemSize(out) + sk.Size
	if size > ddblimits.ItemBytes {
		return nil, 0, validationError("Item size has exceeded the maximum allowed size")
	}
	return out, size, nil
}

// checkValue is checkAttributeValue for a value; "" when acceptable.
func checkValue(v value.Value) string {
	switch v.Kind() {
	case value.String, value.Binary, value.Bool, value.Null:
		return ""
	case value.Number:
		return checkNumber(v.Text())
	case value.Map:
		m := v.Attrs()
		for _, e := range m {
			if checkValue(e) != "" {
				// The first member in name order is the one reported.
				for _, k := range sortedNames(m) {
					if msg := checkValue(m[k]); msg != "" {
						return msg
					}
				}
			}
		}
		return ""
	case value.List:
		for _, e := range v.Elems() {
			if msg := checkValue(e); msg != "" {
				return msg
			}
		}
		return ""
	}
	return checkAttributeValue(v.AttributeValue())
}

// storedValue is a checked value as fromAV would store it: sets sorted;
// changed says whether it differs from v (values without sets are returned
// as they are). Numbers are canonical already (see PutValues).
func storedValue(v value.Value) (stored value.Value, changed bool, msg string) {
	switch v.Kind() {
	case value.String, value.Binary, value.Bool, value.Null, value.Number:
		return v, false, ""
	case value.Map:
		m := v.Attrs()
		var out map[string]value.Value
		for k, e := range m {
			s, ch, msg := storedValue(e)
			if msg != "" {
				return v, false, msg
			}
			if ch && out == nil {
				out = make(map[string]value.Value, len(m))
				for k2, e2 := range m {
					out[k2] = e2
				}
			}
			if out != nil {
				out[k] = s
			}
		}
		if out == nil {
			return v, false, ""
		}
		return value.MapOf(out), true, ""
	case value.List:
		elems := v.Elems()
		var out []value.Value
		for i, e := range elems {
			s, ch, msg := storedValue(e)
			if msg != "" {
				return v, false, msg
			}
			if ch && out == nil {
				out = append([]value.Value(nil), elems...)
			}
			if out != nil {
				out[i] = s
			}
		}
		if out == nil {
			return v, false, ""
		}
		return value.ListOf(out), true, ""
	}
	s, err := fromAV(v.AttributeValue())
	if err != nil {
		return v, false, err.Error()
	}
	return s, true, ""
}

package write

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/columnar"
	"github.com/ddbsql/ddbsql/exec/engine"
	"github.com/ddbsql/ddbsql/exec/eval"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/value"
)

// target is one item the statement writes: its key, the item as read
// (Missing for an INSERT), and the image it writes (Missing for a DELETE).
type target struct {
	key      map[string]types.AttributeValue
	keyText  string
	old, new value.Value
	// sentOld is the image DynamoDB returned (ALL_OLD) for the write that
	// applied; unchanged says no request was needed (the new image is the
	// old one).
	sentOld   value.Value
	unchanged bool
}

// units is the write capacity of the target: the larger of its old and new
// image, in 1 KB units, at least one.
func (t *target) units() float64 {
	u := 1.0
	for _, v := range []value.Value{t.old, t.new} {
		if v.Kind() == value.Map {
			u = math.Max(u, math.Ceil(float64(eval.ItemSize(v))/1024))
		}
	}
	return u
}

// collect runs the plan's read to its end and computes every target.
func collect(ctx context.Context, env *engine.Env, wp *planner.WritePlan) ([]*target, error) {
	if wp.Read == nil {
		return valuesTargets(wp)
	}
	items, err := readItems(ctx, env, wp)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	var out []*target
	for _, it := range items {
		t, err := newTarget(wp, it)
		if err != nil {
			return nil, err
		}
		if seen[t.keyText] {
			if wp.Kind == planner.WriteInsert || wp.Kind == planner.WriteReplace {
				return nil, execErr(diag.CodeInvalid, fmt.Sprintf("the rows to %s hold the key %s twice; nothing was written", wp.Kind, t.keyText),
					"give every row its own key")
			}
			continue
		}
		seen[t.keyText] = true
		out = append(out, t)
	}
	return out, nil
}

// readItems runs the read and returns its rows as items: whole items for a
// SELECT *, else the columns under the names wp.Columns gives them.
func readItems(ctx context.Context, env *engine.Env, wp *planner.WritePlan) ([]value.Value, error) {
	op, err := engine.Build(env, wp.Read.Root)
	if err != nil {
		return nil, err
	}
	defer op.Close()
	var items []value.Value
	for {
		b, err := op.Next(ctx)
		if err == io.EOF {
			return items, nil
		}
		if err != nil {
			return nil, err
		}
		env.Stats.AddRows(b.NumRows())
		names := make([]string, b.NumCols())
		for c := range names {
			names[c] = b.Schema().Field(c).Name
			if !wp.Read.Star && wp.Columns != nil {
				names[c] = wp.Columns[c]
			}
		}
		for r := 0; r < int(b.NumRows()); r++ {
			row := columnar.OwnedRow(b, r)
			attrs := make(map[string]value.Value, len(row))
			for c, v := range row {
				if v.Kind() != value.Missing {
					attrs[names[c]] = v
				}
			}
			items = append(items, value.MapOf(attrs))
		}
		b.Release()
	}
}

// valuesTargets evaluates INSERT … VALUES rows.
func valuesTargets(wp *planner.WritePlan) ([]*target, error) {
	var out []*target
	seen := map[string]bool{}
	for r, row := range wp.Values {
		attrs := map[string]value.Value{}
		for i, e := range row {
			if e == nil {
				continue
			}
			v, err := eval.Eval(e, itemRow{names: wp.Names})
			if err != nil {
				return nil, evalErr(err, fmt.Sprintf("row %d of VALUES", r+1))
			}
			if v.Kind() != value.Missing {
				attrs[wp.Columns[i]] = v.Clone()
			}
		}
		t, err := newTarget(wp, value.MapOf(attrs))
		if err != nil {
			return nil, err
		}
		if seen[t.keyText] {
			return nil, execErr(diag.CodeInvalid, fmt.Sprintf("VALUES holds the key %s twice; nothing was written", t.keyText), "give every row its own key")
		}
		seen[t.keyText] = true
		out = append(out, t)
	}
	return out, nil
}

// newTarget makes the target of one item read (or row to insert).
func newTarget(wp *planner.WritePlan, item value.Value) (*target, error) {
	key, text, err := keyOf(wp.Table, item)
	if err != nil {
		return nil, err
	}
	t := &target{key: key, keyText: text}
	switch wp.Kind {
	case planner.WriteInsert, planner.WriteReplace:
		t.new = item
	case planner.WriteDelete:
		t.old = item
	case planner.WriteUpdate:
		t.old = item
		nv, err := applySets(wp, item)
		if err != nil {
			return nil, evalErr(err, "the item "+text)
		}
		t.new = nv
	}
	if t.new.Kind() == value.Map {
		if err := checkKeyTypes(wp.Table, t.new, text); err != nil {
			return nil, err
		}
	}
	return t, nil
}

// checkKeyTypes refuses, before anything is written, an image whose table
// or index key attributes have another type than the table declares:
// DynamoDB would reject that item's request after others were written.
func checkKeyTypes(def *planner.TableDef, img value.Value, text string) error {
	check := func(k planner.KeyAttr, of string) error {
		v := img.Attr(k.Name)
		if v.Kind() == value.Missing || v.Kind() == k.Type {
			return nil
		}
		return execErr(diag.CodeKeyType, fmt.Sprintf("the item %s gives %s the type %s, but %s is a key of %s of type %s; nothing was written", text, k.Name, v.Kind(), k.Name, of, k.Type),
			fmt.Sprintf("write %s as a %s", k.Name, k.Type))
	}
	keys := []planner.KeyAttr{def.PK}
	if def.SK != nil {
		keys = append(keys, *def.SK)
	}
	for _, k := range keys {
		if err := check(k, "table "+def.Name); err != nil {
			return err
		}
	}
	for _, ix := range def.Indexes {
		keys := []planner.KeyAttr{ix.PK}
		if ix.SK != nil {
			keys = append(keys, *ix.SK)
		}
		for _, k := range keys {
			if err := check(k, "index "+ix.Name); err != nil {
				return err
			}
		}
	}
	return nil
}

// applySets computes UPDATE's new image of item.
func applySets(wp *planner.WritePlan, item value.Value) (value.Value, error) {
	row := itemRow{item: item, names: wp.Names}
	attrs := map[string]value.Value{}
	for n, v := range item.Attrs() {
		attrs[n] = v
	}
	// Every expression reads the item as it was (SQL: SET a = b, b = a swaps).
	vals := make([]value.Value, len(wp.Sets))
	for i, s := range wp.Sets {
		if s.Expr == nil {
			continue
		}
		v, err := eval.Eval(s.Expr, row)
		if err != nil {
			return value.Value{}, err
		}
		vals[i] = v.Clone()
	}
	for i, s := range wp.Sets {
		top := s.Path.Attr()
		if len(s.Path) == 1 {
			if vals[i].Kind() == value.Missing {
				delete(attrs, top)
			} else {
				attrs[top] = vals[i]
			}
			continue
		}
		cur, ok := attrs[top]
		if !ok {
			return value.Value{}, fmt.Errorf("cannot set %s: the item has no attribute %s", s.Path, top)
		}
		nv, err := setPath(cur, s.Path[1:], vals[i], s.Path)
		if err != nil {
			return value.Value{}, err
		}
		attrs[top] = nv
	}
	return value.MapOf(attrs), nil
}

// setPath returns v with the element at p replaced by nv (removed when nv
// is Missing), as DynamoDB's SET and REMOVE of a document path do: the
// parents must exist; an index past a list's end appends.
func setPath(v value.Value, p value.Path, nv value.Value, whole value.Path) (value.Value, error) {
	e := p[0]
	switch {
	case e.IsIndex && v.Kind() == value.List:
		elems := slices.Clone(v.Elems())
		if len(p) > 1 {
			if e.Index >= len(elems) {
				return value.Value{}, fmt.Errorf("cannot set %s: the list has no element %d", whole, e.Index)
			}
			c, err := setPath(elems[e.Index], p[1:], nv, whole)
			if err != nil {
				return value.Value{}, err
			}
			elems[e.Index] = c
			return value.ListOf(elems), nil
		}
		switch {
		case nv.Kind() == value.Missing && e.Index < len(elems):
			elems = slices.Delete(elems, e.Index, e.Index+1)
		case nv.Kind() == value.Missing:
		case e.Index < len(elems):
			elems[e.Index] = nv
		default:
			elems = append(elems, nv)
		}
		return value.ListOf(elems), nil
	case !e.IsIndex && v.Kind() == value.Map:
		attrs := map[string]value.Value{}
		for n, x := range v.Attrs() {
			attrs[n] = x
		}
		if len(p) > 1 {
			c, ok := attrs[e.Name]
			if !ok {
				return value.Value{}, fmt.Errorf("cannot set %s: %s does not exist", whole, e.Name)
			}
			nc, err := setPath(c, p[1:], nv, whole)
			if err != nil {
				return value.Value{}, err
			}
			attrs[e.Name] = nc
		} else if nv.Kind() == value.Missing {
			delete(attrs, e.Name)
		} else {
			attrs[e.Name] = nv
		}
		return value.MapOf(attrs), nil
	}
	return value.Value{}, fmt.Errorf("cannot set %s: the value at that path is a %s, not a %s", whole, v.Kind(), map[bool]string{true: "list", false: "map"}[e.IsIndex])
}

// keyOf reads an item's primary key.
func keyOf(def *planner.TableDef, item value.Value) (map[string]types.AttributeValue, string, error) {
	key := map[string]types.AttributeValue{}
	text := ""
	for i, k := range def.KeyNames() {
		v := item.Attr(k)
		if v.Kind() == value.Missing {
			return nil, "", execErr(diag.CodeInvalid, fmt.Sprintf("an item to write has no key attribute %s (table %s is keyed by %s); nothing was written", k, def.Name, keyList(def)),
				"give every item its key attributes")
		}
		key[k] = v.AttributeValue()
		if i > 0 {
			text += ", "
		}
		text += k + "=" + literal(v)
	}
	return key, text, nil
}

func keyList(def *planner.TableDef) string {
	s := ""
	for i, k := range def.KeyNames() {
		if i > 0 {
			s += ", "
		}
		s += k
	}
	return s
}

// literal renders a key value as SQL would write it.
func literal(v value.Value) string {
	switch v.Kind() {
	case value.String:
		return "'" + v.Text() + "'"
	case value.Number:
		return v.Text()
	}
	return v.JSON()
}

func execErr(code diag.Code, msg, hint string) *diag.Error {
	return &diag.Error{Phase: diag.Execute, Code: code, Msg: msg, Hint: hint}
}

// evalErr explains a failure to compute a value; nothing was written.
func evalErr(err error, where string) error {
	var de *diag.Error
	if errors.As(err, &de) && de.Phase == diag.Execute {
		return err
	}
	return &diag.Error{Phase: diag.Execute, Code: diag.CodeEval, Cause: err,
		Msg: fmt.Sprintf("computing the new values of %s failed: %v; nothing was written", where, err)}
}

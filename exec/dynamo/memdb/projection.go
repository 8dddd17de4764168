package memdb

import (
	"errors"
	"sort"

	"github.com/ddbsql/ddbsql/planner/value"
)

// ProjectionExpression: parsing and applying.

// parseProjection parses a comma-separated list of document paths and
// rejects overlapping or conflicting paths as DynamoDB does.
func parseProjection(env *exprEnv, src string) ([]value.Path, error) {
	if src == "" {
		return nil, errors.New("The expression can not be empty;")
	}
	ps := newParser(env, src)
	var paths []value.Path
	for {
		p, err := ps.parsePath()
		if err != nil {
			return nil, err
		}
		for _, q := range paths {
			ps.checkOverlap(q, p)
		}
		paths = append(paths, p)
		if !(ps.tok().kind == tSymbol && ps.tok().text == ",") {
			break
		}
		ps.p++
	}
	if ps.tok().kind != tEOF {
		return nil, ps.fail()
	}
	for _, k := range []int{errReserved, errAttrNameVal, errPathOverlap, errPathConflict} {
		if ps.errs[k] != "" {
			return nil, errors.New(ps.errs[k])
		}
	}
	return paths, nil
}

func (ps *parser) checkOverlap(a, b value.Path) {
	for i := 0; i < len(a) && i < len(b); i++ {
		if a[i].IsIndex != b[i].IsIndex {
			ps.note(errPathConflict, "Two document paths conflict with each other; must remove or rewrite one of these paths; path one: %s, path two: %s", pathString(a), pathString(b))
			return
		}
		if a[i] != b[i] {
			return
		}
	}
	ps.note(errPathOverlap, "Two document paths overlap with each other; must remove or rewrite one of these paths; path one: %s, path two: %s", pathString(a), pathString(b))
}

// projNode builds the projected item: a leaf value, or map members / list
// elements by index (list elements are compacted in index order).
type projNode struct {
	leaf  *value.Value
	attrs map[string]*projNode
	elems map[int]*projNode
}

func (n *projNode) child(e value.PathElem) *projNode {
	if e.IsIndex {
		if n.elems == nil {
			n.elems = map[int]*projNode{}
		}
		c := n.elems[e.Index]
		if c == nil {
			c = &projNode{}
			n.elems[e.Index] = c
		}
		return c
	}
	if n.attrs == nil {
		n.attrs = map[string]*projNode{}
	}
	c := n.attrs[e.Name]
	if c == nil {
		c = &projNode{}
		n.attrs[e.Name] = c
	}
	return c
}

func (n *projNode) build() value.Value {
	switch {
	case n.leaf != nil:
		return *n.leaf
	case n.elems != nil:
		idx := make([]int, 0, len(n.elems))
		for i := range n.elems {
			idx = append(idx, i)
		}
		sort.Ints(idx)
		out := make([]value.Value, len(idx))
		for k, i := range idx {
			out[k] = n.elems[i].build()
		}
		return value.ListOf(out)
	}
	out := make(map[string]value.Value, len(n.attrs))
	for k, c := range n.attrs {
		out[k] = c.build()
	}
	return value.MapOf(out)
}

// project returns the attributes of a selected by paths; paths that
// resolve to nothing are left out.
func project(a attrs, paths []value.Path) attrs {
	if paths == nil {
		return a
	}
	if out, ok := projectTopLevel(a, paths); ok {
		return out
	}
	root := &projNode{}
	for _, p := range paths {
		v := resolvePath(a, p)
		if v.Kind() == value.Missing {
			continue
		}
		n := root
		for _, e := range p {
			n = n.child(e)
		}
		n.leaf = &v
	}
	out := make(attrs, 0, len(root.attrs))
	for k, c := range root.attrs {
		out = append(out, attr{k, c.build()})
	}
	return sortAttrs(out)
}

// resolvePath reads a document path from an item.
func resolvePath(a attrs, p value.Path) value.Value {
	top, ok := a.get(p[0].Name)
	if !ok {
		return value.MissingValue()
	}
	if len(p) == 1 {
		return top
	}
	return p.Get(top)
}

// projectTopLevel is project when every path is a top-level name (the
// common projection), without building a tree: the attributes of a (in
// name order) that a path names. ok is false for nested paths.
func projectTopLevel(a attrs, paths []value.Path) (_ attrs, ok bool) {
	for _, p := range paths {
		if len(p) != 1 || p[0].IsIndex {
			return nil, false
		}
	}
	out := make(attrs, 0, len(paths))
	for _, at := range a {
		for _, p := range paths {
			if p[0].Name == at.name {
				out = append(out, at)
				break
			}
		}
	}
	return out, true
}

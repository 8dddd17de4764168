package planner

import (
	"fmt"
	"strings"
	"testing"
)

// TestWalkOrder: Walk visits every node once, parents before their inputs
// and inputs in order, with each node's depth, and a visit that returns
// false keeps Walk out of that node's inputs only.
func TestWalkOrder(t *testing.T) {
	probe := &Access{Op: OpQuery, Table: "probe"}
	build := &Access{Op: OpScan, Table: "build"}
	b1 := &Access{Op: OpGetItem, Table: "b1"}
	b2 := &Access{Op: OpGetItem, Table: "b2"}
	union := &Union{Branches: []Node{b1, b2}}
	join := &HashJoin{Probe: &Filter{Input: probe}, Build: &Distinct{Input: build}}
	root := &Limit{Input: &Sort{Input: &HashJoin{Probe: join, Build: union}}}

	name := func(n Node) string {
		if a, ok := n.(*Access); ok {
			return a.Table
		}
		return strings.TrimPrefix(fmt.Sprintf("%T", n), "*planner.")
	}
	var got []string
	Walk(root, func(n Node, depth int) bool {
		got = append(got, fmt.Sprintf("%d:%s", depth, name(n)))
		return true
	})
	want := "0:Limit 1:Sort 2:HashJoin 3:HashJoin 4:Filter 5:probe 4:Distinct 5:build 3:Union 4:b1 4:b2"
	if strings.Join(got, " ") != want {
		t.Errorf("walk order\n got %s\nwant %s", strings.Join(got, " "), want)
	}

	got = nil
	Walk(root, func(n Node, depth int) bool {
		got = append(got, name(n))
		_, isJoin := n.(*HashJoin)
		return !isJoin || depth < 3 // not into the inner join
	})
	if want := "Limit Sort HashJoin HashJoin Union b1 b2"; strings.Join(got, " ") != want {
		t.Errorf("walk that skips the inner join\n got %s\nwant %s", strings.Join(got, " "), want)
	}

	isScan := func(n Node) bool { a, ok := n.(*Access); return ok && a.Op == OpScan }
	if f := Find(root, isScan); f != build {
		t.Errorf("Find(scan) = %v, want the build side's read", f)
	}
	isGet := func(n Node) bool { a, ok := n.(*Access); return ok && a.Op == OpGetItem }
	if f := Find(root, isGet); f != b1 {
		t.Errorf("Find(GetItem) = %v, want the union's first branch", f)
	}
	if f := Find(root, func(n Node) bool { _, ok := n.(*OneRow); return ok }); f != nil {
		t.Errorf("Find(OneRow) = %v, want nil", f)
	}
}

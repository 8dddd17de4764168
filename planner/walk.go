package planner

// Walk visits n and every node below it, depth first in the order of each
// node's Inputs (the order EXPLAIN prints them), the way go/ast.Inspect
// does: visit gets each node with its depth (n is at 0) and returns whether
// to go on into that node's inputs. A walk that needs to hand state down to
// the inputs of a node keeps it in a map by node: every node of a plan is a
// distinct value, so a node is visited once.
//
// Every walk over a plan goes through Walk; Inputs is the one way to a
// node's children.
func Walk(n Node, visit func(n Node, depth int) bool) {
	walk(n, 0, visit)
}

func walk(n Node, depth int, visit func(Node, int) bool) {
	if !visit(n, depth) {
		return
	}
	for _, in := range n.Inputs() {
		walk(in, depth+1, visit)
	}
}

// Find returns the first node in Walk's order for which match is true, not
// looking below it, or nil.
func Find(n Node, match func(Node) bool) Node {
	var found Node
	Walk(n, func(m Node, _ int) bool {
		if found != nil {
			return false
		}
		if match(m) {
			found = m
			return false
		}
		return true
	})
	return found
}

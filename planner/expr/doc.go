// Package expr is the resolved expression tree that the planner builds from
// SQL and that exec evaluates on the client.
//
// Phase: planner output, exec input. Invariants: every column reference is
// resolved to a FROM item (Column.Source) and a DynamoDB document path,
// and carries the ColumnID of the top-level attribute the path starts from
// (one ID per FROM item and attribute in a statement; exec binds IDs to
// batch columns, Ref is a position in an operator's input);
// literals are typed DynamoDB values with exact numbers; function names are
// lower-case and were checked against the function catalogue (planner/funcs)
// during planning;
// aggregates appear only where the planner allows them and are replaced by
// Ref nodes above the aggregation; window functions (Window) appear only
// in the select list and ORDER BY and are replaced by Ref nodes above the
// window operator; a Subquery node refers to a subquery planned on its own,
// whose rows exec stores in its SubqueryResult before any row of the
// statement is evaluated. String renders an expression back as SQL
// for EXPLAIN.
package expr

// Package rawpage is the contract of ddbsql's fast read path: Reader, the
// interface a decoder of Query and Scan response bodies implements
// (exec/dynamo/wire), and Page, one decoded response. exec reads through a
// Reader when one is set (exec/read's Env.Raw) and through the SDK's item maps
// otherwise.
//
// Phase: exec. It sits below both of its users so that neither imports the
// other's parent: exec consumes a Reader, wire implements one, and wire
// never imports exec. It imports only planner/value and exec/columnar (leaves)
// and the SDK's types.
//
// Invariant: a Reader's batch holds exactly what the SDK path builds from
// the same items; errors are the SDK's, so exec explains them the same way
// on both paths.
package rawpage

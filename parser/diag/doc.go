// Package diag is ddbsql's one error model: every failure a user can see,
// from any phase, is a *Error with a Phase, a stable Code, a message, an
// optional hint, a position and a cause.
//
// Phase: none of its own; it is the leaf every phase shares. It lives in
// the parser layer because that is the lowest layer that reports errors,
// so that parser, planner, exec and cmd may all import it.
//
// May import: nothing of the module (only the standard library).
//
// Invariants:
//   - Every Code is declared once, in codes.go, with a comment saying when
//     it is used; codes_test.go lists them with their spelling, which never
//     changes, and checks that each is used outside this package.
//   - Msg never carries the code, and never the position: Error renders the
//     position (see Error), so a caller that locates the error otherwise
//     (a script names the line: "report.sql:12: ") can render it without
//     the line (TextAtColumn) rather than editing text.
//   - A caller prints an error with one errors.As on *Error: Text (or
//     TextAtColumn) for the message lines, Hint for the advice.
//   - Extra structure a phase attaches travels as the Cause, found with
//     errors.As: the Scan a refused statement needs (planner.ScanNeeded),
//     the item DynamoDB returned that cannot be read. A script's file and
//     line stay a wrapper (repl.ScriptError), because a script statement
//     can fail with any error, not only with an *Error, and its line is
//     where the statement starts, not where its error is.
//   - An error wrapping another of a later phase keeps it as Cause (an
//     execute error "eval" around the evaluate error "set_index"): Has and
//     Find look along the chain for a code, CodeOf reads the outermost.
package diag

// Package plural counts nouns in messages: "1 item", "2 items", "0 items".
//
// It is a leaf with no imports from the module so that every layer that
// writes counted nouns (the planner's estimates, exec's errors and stats
// lines, the REPL) can share one rule. It lives under planner because the
// planner is the lowest layer that needs it; the parser writes no counts.
//
// Invariant: only regular English plurals (word + "s"); irregular phrases
// such as "1 key was" / "2 keys were" stay with their callers.
package plural

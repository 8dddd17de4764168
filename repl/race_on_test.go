//go:build race

package repl_test

// raceEnabled: the tests run with -race, so the binary they drive is built
// with it too (its packages are then already compiled, and the REPL's own
// goroutines run under the race detector).
const raceEnabled = true

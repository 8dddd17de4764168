package funcs

import (
	"strconv"

	"github.com/ddbsql/ddbsql/planner/plural"
)

// ArityText says how many arguments f takes, for messages that both the
// binder and the evaluator write: "1 argument", "at least 1 argument",
// "2 to 3 arguments".
func (f Func) ArityText() string {
	switch {
	case f.MaxArgs == Variadic:
		return "at least " + plural.Of(f.MinArgs, "argument")
	case f.MinArgs == f.MaxArgs:
		return plural.Of(f.MinArgs, "argument")
	}
	return strconv.Itoa(f.MinArgs) + " to " + plural.Of(f.MaxArgs, "argument")
}

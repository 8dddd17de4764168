package diag

// Phase is the step of running a statement (or of starting ddbsql) in
// which an error arose.
type Phase uint8

// The phases, in the order a statement goes through them.
const (
	PhaseUnknown Phase = iota // the zero value: no phase was set
	Config                    // settings: flags, settings file, environment
	Load                      // loading offline data (--data, --demo)
	Connect                   // making the DynamoDB connection
	Command                   // a REPL or script meta-command (\i, \d)
	Parse                     // SQL text to statements
	Plan                      // statement and catalog to a plan
	Execute                   // running a plan: DynamoDB calls, operators
	Evaluate                  // evaluating an expression on a row
)

var phaseNames = [...]string{
	PhaseUnknown: "unknown",
	Config:       "config",
	Load:         "load",
	Connect:      "connect",
	Command:      "command",
	Parse:        "parse",
	Plan:         "plan",
	Execute:      "execute",
	Evaluate:     "evaluate",
}

// String is the phase's lower-case name ("parse", "plan").
func (p Phase) String() string {
	if int(p) < len(phaseNames) {
		return phaseNames[p]
	}
	return "unknown"
}

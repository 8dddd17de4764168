package repl

import (
	"io"
	"os"

	"github.com/ddbsql/ddbsql/exec/format"
	"github.com/ddbsql/ddbsql/exec/session"
)

// Config is what the command line hands the REPL.
type Config struct {
	// Session runs the statements; the REPL changes its settings
	// (\format, \x, \set …) and its output writers.
	Session *session.Session
	// Label names the connection in the prompt, "ddbsql (Label)> ":
	// "prod@eu-west-1", "localhost:8000@us-east-1", "demo".
	Label string
	// In and Out are the terminal (both must be terminals); Err is stderr.
	In, Out *os.File
	Err     io.Writer
	// Version is shown in the banner.
	Version string
	// HistoryPath is the history file ("" keeps history in memory only);
	// HistorySize bounds it (0: DefaultHistorySize).
	HistoryPath string
	HistorySize int
	// Pager pages results taller than the screen ("" never pages).
	Pager string
	// NoColor turns off every colour the line editor would draw (the
	// completion menu); --no-color, NO_COLOR or the settings file.
	NoColor bool
	// PrintError prints an error the way batch mode does.
	PrintError func(io.Writer, error)
	// Output, when set, is where results go from the start (-o FILE), as
	// if the user had typed \o FILE.
	Output *format.Destination
}

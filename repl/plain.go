package repl

import (
	"bufio"
	"errors"
	"io"
	"strings"
)

// errQuit is returned by a line reader when the user asked to leave with a
// second Ctrl-C at an empty prompt (or the terminal went away).
var errQuit = errors.New("quit")

// lineReader reads one line of input. It returns io.EOF for Ctrl-D at an
// empty line and errQuit for the double Ctrl-C.
type lineReader interface {
	ReadLine(history []string) (string, error)
}

// plainReader is the fallback line reader when go-prompt cannot run (a
// terminal that is not the controlling terminal): the prompt is printed as
// plain text and lines are read in cooked mode. No completion, no recall.
type plainReader struct {
	in     *bufio.Reader
	out    io.Writer
	prefix func() string
}

// ReadLine prints the prompt and reads a line; Ctrl-D is io.EOF.
func (r *plainReader) ReadLine([]string) (string, error) {
	_, _ = io.WriteString(r.out, r.prefix())
	line, err := r.in.ReadString('\n')
	if err != nil && line == "" {
		_, _ = io.WriteString(r.out, "\n")
		return "", io.EOF
	}
	return strings.TrimRight(line, "\r\n"), nil
}

package repl

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/mattn/go-runewidth"
)

// DefaultPager is used when $PAGER is not set.
const DefaultPager = "less -FRX"

// errPagerClosed is returned to the statement once the user has left the
// pager: the rest of the result is not wanted.
var errPagerClosed = errors.New("pager closed")

// pagedOutput is one statement's standard output when paging is on. It
// holds the text back until it knows whether it fits the screen: as soon as
// it is taller than the screen (less a line for the prompt) the pager starts
// with everything so far and the rest streams into it; at the end, text
// that fitted is written to the terminal as is.
type pagedOutput struct {
	out     io.Writer // the terminal
	rows    int
	cols    int
	command string
	shell   string      // runs command ("/bin/sh")
	warn    func(error) // told once when the pager cannot start

	buf     bytes.Buffer
	lines   int // display lines completed so far
	col     int // display column in the current line
	partial []byte

	proc atomic.Pointer[os.Process] // for Kill, which must not wait for mu

	mu     sync.Mutex
	cmd    *exec.Cmd
	pipe   io.WriteCloser
	closed bool // the pager exited before the result was complete
}

func newPagedOutput(out io.Writer, rows, cols int, command string, warn func(error)) *pagedOutput {
	return &pagedOutput{out: out, rows: rows, cols: cols, command: command, shell: "/bin/sh", warn: warn}
}

// Write implements io.Writer.
func (p *pagedOutput) Write(b []byte) (int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return 0, errPagerClosed
	}
	if p.pipe != nil {
		if _, err := p.pipe.Write(b); err != nil {
			p.closed = true
			return 0, errPagerClosed
		}
		return len(b), nil
	}
	if p.cmd == nil && p.command == "" {
		return p.out.Write(b)
	}
	p.buf.Write(b)
	p.count(b)
	if p.lines+boolInt(p.col > 0) > p.rows-1 {
		if err := p.startPager(); err != nil {
			p.warn(err)
			p.command = ""
			_, err := p.out.Write(p.buf.Bytes())
			p.buf.Reset()
			return len(b), err
		}
	}
	return len(b), nil
}

// count advances the display line count over b (wide runes count double,
// long lines wrap at the screen width, tabs stop every 8 columns).
func (p *pagedOutput) count(b []byte) {
	data := append(p.partial, b...)
	p.partial = nil
	for len(data) > 0 {
		if !utf8.FullRune(data) {
			p.partial = append([]byte(nil), data...)
			return
		}
		r, n := utf8.DecodeRune(data)
		data = data[n:]
		switch r {
		case '\n':
			p.lines++
			p.col = 0
			continue
		case '\r':
			p.col = 0
			continue
		case '\t':
			p.col = min((p.col/8+1)*8, p.cols)
		default:
			// A full line wraps only when another character follows.
			w := runewidth.RuneWidth(r)
			if p.col+w > p.cols {
				p.lines++
				p.col = 0
			}
			p.col += w
		}
	}
}

// startPager runs the pager on the terminal and feeds it what is buffered.
func (p *pagedOutput) startPager() error {
	// exec: the shell is replaced by the pager, so Ctrl-C (which reaches the
	// whole process group) cannot kill the shell and leave the pager behind.
	cmd := exec.Command(p.shell, "-c", "exec "+p.command)
	cmd.Stdout = os.Stdout
	cmd.Stderr = os.Stderr
	pipe, err := cmd.StdinPipe()
	if err != nil {
		return err
	}
	if err := cmd.Start(); err != nil {
		return err
	}
	p.cmd, p.pipe = cmd, pipe
	p.proc.Store(cmd.Process)
	if _, err := pipe.Write(p.buf.Bytes()); err != nil {
		p.closed = true
	}
	p.buf.Reset()
	return nil
}

// Close ends the output: it waits for the pager, or writes out the text
// that fitted. It reports whether the pager ran.
func (p *pagedOutput) Close() (paged bool, err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.cmd != nil {
		p.pipe.Close()
		_ = p.cmd.Wait() // the pager's exit status is not the statement's
		return true, nil
	}
	if p.buf.Len() > 0 {
		_, err = p.out.Write(p.buf.Bytes())
		p.buf.Reset()
	}
	return false, err
}

// Kill stops a running pager (the REPL is exiting on a signal).
func (p *pagedOutput) Kill() {
	if proc := p.proc.Load(); proc != nil {
		_ = proc.Kill()
	}
}

// Quit reports whether the user left the pager before the end.
func (p *pagedOutput) Quit() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.closed
}

// Paging reports whether the pager has the screen.
func (p *pagedOutput) Paging() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.cmd != nil
}

// progressGate passes the session's progress line to the terminal except
// while the pager has the screen.
type progressGate struct {
	w     io.Writer
	pager *pagedOutput
}

func (g progressGate) Write(b []byte) (int, error) {
	if g.pager.Paging() {
		return len(b), nil
	}
	return g.w.Write(b)
}

// pagerAvailable reports whether the pager command's program exists.
func pagerAvailable(command string) bool {
	f := strings.Fields(command)
	if len(f) == 0 {
		return false
	}
	_, err := exec.LookPath(f[0])
	return err == nil
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

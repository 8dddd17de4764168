//go:build unix

package repl

import (
	"errors"
	"os"
	"sync"

	"golang.org/x/sys/unix"
	"golang.org/x/term"
)

// errTerminalClosed is returned when raw mode is asked for after the final
// restore (the process is on its way out).
var errTerminalClosed = errors.New("terminal already restored for exit")

// terminal owns the REPL's terminal: the state saved before go-prompt first
// runs, raw mode for line editing (derived from that saved state, never from
// whatever a crashed run left behind), and restoring it on every way out.
type terminal struct {
	in, out *os.File
	fd      int
	saved   *term.State
	raw     unix.Termios

	mu     sync.Mutex
	closed bool
	edited bool // go-prompt ran: it may have hidden the cursor
}

// openTerminal saves the state of in's terminal.
func openTerminal(in, out *os.File) (*terminal, error) {
	fd := int(in.Fd())
	saved, err := term.GetState(fd)
	if err != nil {
		return nil, err
	}
	tio, err := unix.IoctlGetTermios(fd, ioctlGetTermios)
	if err != nil {
		return nil, err
	}
	return &terminal{in: in, out: out, fd: fd, saved: saved, raw: rawMode(*tio)}, nil
}

// rawMode is go-prompt's raw mode: no echo, no line editing, no signals from
// keys, 8-bit input, one byte at a time. Output processing (OPOST) stays on:
// go-prompt's renderer relies on "\n" moving to the start of the next line.
func rawMode(t unix.Termios) unix.Termios {
	t.Iflag &^= unix.IGNBRK | unix.BRKINT | unix.PARMRK | unix.ISTRIP | unix.INLCR | unix.IGNCR | unix.ICRNL | unix.IXON
	t.Lflag &^= unix.ECHO | unix.ICANON | unix.IEXTEN | unix.ISIG | unix.ECHONL
	t.Cflag &^= unix.CSIZE | unix.PARENB
	t.Cflag |= unix.CS8
	t.Cc[unix.VMIN] = 1
	t.Cc[unix.VTIME] = 0
	return t
}

// Raw switches to raw mode for line editing.
func (t *terminal) Raw() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return errTerminalClosed
	}
	t.edited = true
	raw := t.raw
	return unix.IoctlSetTermios(t.fd, ioctlSetTermios, &raw)
}

// Restore puts back the saved state (cooked mode: echo, canonical input,
// Ctrl-C as SIGINT).
func (t *terminal) Restore() error {
	t.mu.Lock()
	defer t.mu.Unlock()
	return term.Restore(t.fd, t.saved)
}

// Close restores the saved state for good: later Raw calls fail. After
// line editing it also makes sure the cursor is visible (go-prompt hides it
// while rendering). It
// is safe to call more than once and from a signal handler goroutine.
func (t *terminal) Close() {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.closed {
		return
	}
	t.closed = true
	_ = term.Restore(t.fd, t.saved)
	if t.edited {
		_, _ = t.out.WriteString("\x1b[?25h")
	}
}

// Size returns the screen size of the output terminal (24x80 when unknown).
func (t *terminal) Size() (rows, cols int) {
	ws, err := unix.IoctlGetWinsize(int(t.out.Fd()), unix.TIOCGWINSZ)
	if err != nil || ws.Row == 0 || ws.Col == 0 {
		ws, err = unix.IoctlGetWinsize(t.fd, unix.TIOCGWINSZ)
	}
	if err != nil || ws.Row == 0 || ws.Col == 0 {
		return 24, 80
	}
	return int(ws.Row), int(ws.Col)
}

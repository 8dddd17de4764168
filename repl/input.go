//go:build unix

package repl

import (
	"errors"
	"sync"

	prompt "github.com/c-bata/go-prompt"
	"golang.org/x/sys/unix"
)

// errNoInput tells go-prompt's reader goroutine there is nothing yet (it
// ignores errors and asks again).
var errNoInput = errors.New("no input yet")

// pollMillis bounds one Read call, so go-prompt can stop its reader promptly.
const pollMillis = 20

// ttyInput is go-prompt's ConsoleParser. It replaces go-prompt's own
// PosixParser, which saves the terminal state only once per process, sets
// O_NONBLOCK, and is fed whole reads (so a paste arrives as one "key").
//
// It reads the terminal with poll (no O_NONBLOCK on a descriptor shared with
// the shell), cuts the input into pieces (see nextPiece), and after handing
// out an Enter it hands out nothing more until rearm: go-prompt's Input
// returns on Enter and drops whatever its reader goroutine had already read.
type ttyInput struct {
	term *terminal

	mu      sync.Mutex
	queue   []byte
	gated   bool // an Enter went out; wait for rearm
	entered bool // an Enter went out since rearm
	quit    bool // end of input: the next piece asks the REPL to exit
}

var _ prompt.ConsoleParser = (*ttyInput)(nil)

// Setup enters raw mode (go-prompt calls it when Input starts).
func (r *ttyInput) Setup() error { return r.term.Raw() }

// TearDown restores the saved terminal state (when Input returns).
func (r *ttyInput) TearDown() error { return r.term.Restore() }

// GetWinSize reports the screen size; go-prompt renders nothing at 0x0.
func (r *ttyInput) GetWinSize() *prompt.WinSize {
	rows, cols := r.term.Size()
	return &prompt.WinSize{Row: uint16(rows), Col: uint16(cols)}
}

// Read returns the next piece of input, waiting at most pollMillis.
func (r *ttyInput) Read() ([]byte, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.gated {
		return nil, errNoInput
	}
	if r.quit {
		// A Ctrl-C piece: the REPL's Ctrl-C binding sees quit and exits.
		return []byte{keyCtrlC}, nil
	}
	if len(r.queue) == 0 {
		if err := r.fill(); err != nil {
			return nil, err
		}
	}
	p, rest := nextPiece(r.queue)
	out := append([]byte(nil), p...)
	r.queue = rest
	if isEnter(out) {
		r.gated, r.entered = true, true
	}
	return out, nil
}

// fill waits up to pollMillis for terminal input and queues it.
func (r *ttyInput) fill() error {
	fds := []unix.PollFd{{Fd: int32(r.term.fd), Events: unix.POLLIN}}
	n, err := unix.Poll(fds, pollMillis)
	if err != nil || n == 0 {
		return errNoInput
	}
	buf := make([]byte, 4096)
	m, err := unix.Read(r.term.fd, buf)
	if err == unix.EINTR || err == unix.EAGAIN {
		return errNoInput
	}
	if err != nil || m == 0 {
		// The terminal is gone (hang-up) or at end of file.
		r.quit = true
		return errNoInput
	}
	buf = buf[:m]
	pasteTabs(buf)
	r.queue = append(r.queue, buf...)
	return nil
}

// rearm allows input again before the next line is read.
func (r *ttyInput) rearm() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.gated, r.entered = false, false
}

// takeEntered reports whether the last Input ended with Enter.
func (r *ttyInput) takeEntered() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	e := r.entered
	r.entered = false
	return e
}

// ended reports whether the terminal reached end of input.
func (r *ttyInput) ended() bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.quit
}

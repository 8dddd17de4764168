//go:build linux

package repl_test

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
	"golang.org/x/sys/unix"
)

// Generous bounds for a loaded CI machine; tests wait for text, never sleep.
const (
	expectTimeout = 20 * time.Second
	exitTimeout   = 20 * time.Second
)

// buildBinary builds cmd/ddbsql into dir (with -race when the tests have it).
func buildBinary(t *testing.T, dir string) string {
	t.Helper()
	bin := filepath.Join(dir, "ddbsql")
	gobin := filepath.Join(runtime.GOROOT(), "bin", "go")
	if _, err := os.Stat(gobin); err != nil {
		gobin = "go"
	}
	args := []string{"build", "-o", bin}
	if raceEnabled {
		args = append(args, "-race")
	}
	cmd := exec.Command(gobin, append(args, "github.com/ddbsql/ddbsql/cmd/ddbsql")...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// screen is a REPL process on a pseudo-terminal and everything it printed.
type screen struct {
	t    *testing.T
	cmd  *exec.Cmd
	ptmx *os.File // our end
	tty  *os.File // the process's terminal, kept open to read its termios

	mu     sync.Mutex
	out    bytes.Buffer
	pos    int // expect searches from here
	wake   chan struct{}
	exited chan struct{}
	state  *os.ProcessState
}

// startScreen runs bin on a fresh 40x160 pty as its controlling terminal.
func startScreen(t *testing.T, bin string, env []string, args ...string) *screen {
	return startScreenCtty(t, true, bin, env, args...)
}

// startScreenCtty runs bin on a fresh 40x160 pty; with ctty false the pty
// is its stdin and stdout but the process has no controlling terminal.
func startScreenCtty(t *testing.T, ctty bool, bin string, env []string, args ...string) *screen {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Fatalf("pty: %v", err)
	}
	if err := pty.Setsize(ptmx, &pty.Winsize{Rows: 40, Cols: 160}); err != nil {
		t.Fatalf("pty size: %v", err)
	}
	cmd := exec.Command(bin, args...)
	cmd.Env = env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = tty, tty, tty
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true, Setctty: ctty, Ctty: 0}
	if err := cmd.Start(); err != nil {
		t.Fatalf("start %s: %v", bin, err)
	}
	s := &screen{t: t, cmd: cmd, ptmx: ptmx, tty: tty, wake: make(chan struct{}, 1), exited: make(chan struct{})}
	go s.pump()
	go func() {
		_ = cmd.Wait()
		s.mu.Lock()
		s.state = cmd.ProcessState
		s.mu.Unlock()
		close(s.exited)
	}()
	t.Cleanup(func() {
		select {
		case <-s.exited:
		default:
			_ = cmd.Process.Kill()
			<-s.exited
		}
		ptmx.Close()
		tty.Close()
		if t.Failed() || os.Getenv("DDBSQL_TEST_SHOW_SCREEN") != "" {
			t.Logf("screen output:\n%s", printable(s.text()))
		}
	})
	return s
}

func (s *screen) pump() {
	buf := make([]byte, 4096)
	for {
		n, err := s.ptmx.Read(buf)
		if n > 0 {
			s.mu.Lock()
			s.out.Write(buf[:n])
			s.mu.Unlock()
			select {
			case s.wake <- struct{}{}:
			default:
			}
		}
		if err != nil {
			return
		}
	}
}

func (s *screen) text() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.out.String()
}

// expect waits until want appears after the previous match and moves past it.
func (s *screen) expect(want string) {
	s.t.Helper()
	deadline := time.After(expectTimeout)
	for {
		s.mu.Lock()
		rest := s.out.String()[s.pos:]
		if i := strings.Index(rest, want); i >= 0 {
			s.pos += i + len(want)
			s.mu.Unlock()
			return
		}
		s.mu.Unlock()
		select {
		case <-s.wake:
		case <-deadline:
			s.t.Fatalf("timed out waiting for %q; output since the last match:\n%s", want, printable(rest))
		case <-s.exited:
			// One last look: output may have arrived with the exit.
			time.Sleep(50 * time.Millisecond)
			s.mu.Lock()
			rest = s.out.String()[s.pos:]
			s.mu.Unlock()
			if i := strings.Index(rest, want); i >= 0 {
				s.mu.Lock()
				s.pos += i + len(want)
				s.mu.Unlock()
				return
			}
			s.t.Fatalf("process exited while waiting for %q; output since the last match:\n%s", want, printable(rest))
		}
	}
}

// since returns the output after the last match (without moving).
func (s *screen) since() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.out.String()[s.pos:]
}

// mark moves the search position to the end of the output so far.
func (s *screen) mark() {
	s.mu.Lock()
	s.pos = s.out.Len()
	s.mu.Unlock()
}

func (s *screen) send(text string) {
	s.t.Helper()
	if _, err := s.ptmx.Write([]byte(text)); err != nil {
		s.t.Fatalf("write to pty: %v", err)
	}
}

// waitExit waits for the process to end and returns its exit code (or
// 128+signal).
func (s *screen) waitExit() int {
	s.t.Helper()
	select {
	case <-s.exited:
	case <-time.After(exitTimeout):
		s.t.Fatalf("process did not exit; output:\n%s", printable(s.since()))
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if ws, ok := s.state.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return 128 + int(ws.Signal())
	}
	return s.state.ExitCode()
}

// termios reads the terminal's current settings.
func (s *screen) termios() *unix.Termios {
	s.t.Helper()
	tio, err := unix.IoctlGetTermios(int(s.tty.Fd()), unix.TCGETS)
	if err != nil {
		s.t.Fatalf("TCGETS: %v", err)
	}
	return tio
}

// cooked reports whether echo and canonical input are on.
func cooked(t *unix.Termios) bool {
	return t.Lflag&unix.ECHO != 0 && t.Lflag&unix.ICANON != 0
}

// printable shows control bytes as escapes.
func printable(s string) string {
	if len(s) > 6000 {
		s = "…" + s[len(s)-6000:]
	}
	q := strconv.Quote(s)
	return strings.ReplaceAll(q[1:len(q)-1], `\n`, "\\n\n")
}

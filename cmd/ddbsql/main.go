package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/signal"
	"sync/atomic"
	"syscall"

	"golang.org/x/term"

	"github.com/ddbsql/ddbsql/exec/session"
	"github.com/ddbsql/ddbsql/exec/spill"
)

func main() {
	ctx, stop := signalContext()
	st := streams{
		in: os.Stdin, out: os.Stdout, err: os.Stderr,
		interactive: term.IsTerminal(int(os.Stdin.Fd())) && term.IsTerminal(int(os.Stdout.Fd())),
		outTerminal: term.IsTerminal(int(os.Stdout.Fd())),
	}
	if term.IsTerminal(int(os.Stderr.Fd())) {
		st.progress = os.Stderr
		st.outRedirected = !term.IsTerminal(int(os.Stdout.Fd()))
	}
	code := run(ctx, os.Args[1:], st)
	stop()
	spill.RemoveAll() // statements remove their own; this is for one that did not end
	os.Exit(code)
}

// signalContext is cancelled by the first SIGINT or SIGTERM, with the
// signal as its cause: a script's running statement stops, the rows it
// read are printed, and the process exits 128+signal (130, 143); a second
// signal ends a script at once. The REPL runs its statements detached from
// it and handles signals itself.
func signalContext() (context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case s := <-sigs:
			cancel(signalCause{s})
		case <-done:
			return
		}
		// A second signal while a script is still stopping: whatever holds
		// it up, the user asked twice, so leave now.
		for {
			select {
			case s := <-sigs:
				if scriptMode.Load() {
					fmt.Fprintf(os.Stderr, "error: %v again; exiting at once\n", signalCause{s})
					spill.RemoveAll() // the running statement's Close will not run
					os.Exit(signalCause{s}.exitCode())
				}
			case <-done:
				return
			}
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel(context.Canceled)
	}
}

// scriptMode is set while -e, -f or stdin is read or run (not in the REPL,
// which handles Ctrl-C per statement and never exits on it).
var scriptMode atomic.Bool

// signalCause is the cause of a context a signal cancelled.
type signalCause struct{ sig os.Signal }

func (c signalCause) Error() string {
	switch c.sig {
	case os.Interrupt:
		return "interrupted (SIGINT)"
	case syscall.SIGTERM:
		return "terminated (SIGTERM)"
	}
	return fmt.Sprintf("stopped by signal %v", c.sig)
}

// Is makes the cause an interruption for the session (rows read so far
// are printed).
func (c signalCause) Is(target error) bool { return target == session.ErrInterrupted }

// exitCode is 128+signal, the shell's convention.
func (c signalCause) exitCode() int {
	if n, ok := c.sig.(syscall.Signal); ok {
		return 128 + int(n)
	}
	return exitError
}

// signalExit is the exit status of a run a signal stopped.
func signalExit(ctx context.Context) (int, bool) {
	var sc signalCause
	if errors.As(context.Cause(ctx), &sc) {
		return sc.exitCode(), true
	}
	return 0, false
}

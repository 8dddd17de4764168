//go:build unix

package repl

import (
	"io"
	"os"
	"os/signal"
	"syscall"
)

// watchSignals makes SIGTERM and SIGHUP restore the terminal and end the
// process (128+signal), whatever the REPL is doing (typing, a statement, the
// pager), and keeps a stray SIGINT from killing the REPL: Ctrl-C is handled
// per statement. It returns a function that stops watching.
func (r *REPL) watchSignals() (stop func()) {
	fatal := make(chan os.Signal, 1)
	signal.Notify(fatal, syscall.SIGTERM, syscall.SIGHUP)
	interrupts := make(chan os.Signal, 1)
	signal.Notify(interrupts, os.Interrupt)
	done := make(chan struct{})
	go func() {
		for {
			select {
			case s := <-fatal:
				r.exitOnSignal(s)
			case <-interrupts:
			case <-done:
				return
			}
		}
	}()
	return func() {
		signal.Stop(fatal)
		signal.Stop(interrupts)
		close(done)
	}
}

func (r *REPL) exitOnSignal(s os.Signal) {
	if p := r.pager.Load(); p != nil {
		p.Kill()
	}
	r.term.Close()
	_, _ = io.WriteString(r.cfg.Out, "\r\n")
	code := 1
	if n, ok := s.(syscall.Signal); ok {
		code = 128 + int(n)
	}
	os.Exit(code)
}

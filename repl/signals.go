//go:build unix

package repl

import (
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/ddbsql/ddbsql/exec/engine"
	"github.com/ddbsql/ddbsql/exec/spill"
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
		err := engine.Safely(func() error {
			for {
				select {
				case s := <-fatal:
					r.exitOnSignal(s)
				case <-interrupts:
				case <-done:
					return nil
				}
			}
		})
		if err != nil {
			// Nobody would handle SIGTERM and SIGHUP any more: end here,
			// with the terminal restored and the error said.
			r.term.Close()
			r.cfg.PrintError(r.cfg.Err, err)
			spill.RemoveAll()
			os.Exit(1)
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
	spill.RemoveAll() // a statement still running never reaches its Close
	code := 1
	if n, ok := s.(syscall.Signal); ok {
		code = 128 + int(n)
	}
	os.Exit(code)
}

package main

import (
	"context"
	"os"
	"os/signal"
	"syscall"

	"golang.org/x/term"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	st := streams{
		in: os.Stdin, out: os.Stdout, err: os.Stderr,
		interactive: term.IsTerminal(int(os.Stdin.Fd())) && term.IsTerminal(int(os.Stdout.Fd())),
	}
	if term.IsTerminal(int(os.Stderr.Fd())) {
		st.progress = os.Stderr
		st.outRedirected = !term.IsTerminal(int(os.Stdout.Fd()))
	}
	code := run(ctx, os.Args[1:], st)
	stop()
	os.Exit(code)
}

//go:build unix

package repl

import (
	"fmt"
	"io"
	"os"
	"slices"

	prompt "github.com/c-bata/go-prompt"
)

// editorHooks is what the line editor asks the REPL while a line is typed.
type editorHooks interface {
	// Prefix is the prompt to show (main or continuation).
	Prefix() string
	// Complete returns suggestions for the line typed so far.
	Complete(d prompt.Document) []prompt.Suggest
	// Interrupt handles Ctrl-C while typing; lineWasEmpty tells whether the
	// line was empty before it. It returns true to leave the REPL.
	Interrupt(lineWasEmpty bool) bool
	// KeyPressed is called after every other key.
	KeyPressed()
}

// goPrompt reads lines with go-prompt's Input, one call per line, so that
// raw mode is on only while a line is typed and go-prompt's Run (which
// calls os.Exit on SIGINT/SIGTERM) is never used.
type goPrompt struct {
	p     *prompt.Prompt
	in    *ttyInput
	hooks editorHooks

	lastText      string // the line as of the previous key
	sawCtrlC      bool
	exitRequested bool
}

// newGoPrompt builds the editor. go-prompt's New opens /dev/tty for a
// parser that is then replaced, and panics when there is no controlling
// terminal: that is checked first, and a panic is turned into an error.
// With noColor, nothing it draws is coloured (see nocolor.go).
func newGoPrompt(t *terminal, hooks editorHooks, noColor bool) (ed *goPrompt, err error) {
	tty, err := os.Open("/dev/tty")
	if err != nil {
		return nil, fmt.Errorf("no controlling terminal: %w", err)
	}
	tty.Close()
	defer func() {
		if r := recover(); r != nil {
			ed, err = nil, fmt.Errorf("go-prompt: %v", r)
		}
	}()
	g := &goPrompt{in: &ttyInput{term: t}, hooks: hooks}
	rows, _ := t.Size()
	var w prompt.ConsoleWriter = prompt.NewStdoutWriter()
	if noColor {
		w = monochromeWriter{w}
	}
	opts := []prompt.Option{
		prompt.OptionParser(g.in),
		prompt.OptionWriter(quietTitleWriter{w}),
		prompt.OptionLivePrefix(func() (string, bool) { return hooks.Prefix(), true }),
		prompt.OptionPrefixTextColor(prompt.DefaultColor),
		prompt.OptionCompletionWordSeparator(completionSeparators),
		prompt.OptionMaxSuggestion(maxSuggestions(rows)),
		prompt.OptionAddKeyBind(prompt.KeyBind{Key: prompt.ControlC, Fn: g.onCtrlC}),
		prompt.OptionSetExitCheckerOnInput(g.exitCheck),
	}
	if noColor {
		opts = append(opts, noColorOptions()...)
	}
	g.p = prompt.New(func(string) {}, hooks.Complete, opts...)
	return g, nil
}

// maxSuggestions keeps the completion menu within the screen: go-prompt
// renders "window too small" when the prompt plus menu does not fit.
func maxSuggestions(rows int) uint16 {
	n := rows - 4
	if n > 8 {
		n = 8
	}
	if n < 1 {
		n = 1
	}
	return uint16(n)
}

// onCtrlC runs after go-prompt has already cleared the line.
func (g *goPrompt) onCtrlC(*prompt.Buffer) {
	g.sawCtrlC = true
	if g.in.ended() || g.hooks.Interrupt(g.lastText == "") {
		g.exitRequested = true
	}
}

// exitCheck is called by go-prompt after (nearly) every key with the line
// as it now stands; it tracks the line for onCtrlC and ends Input when the
// REPL asked to leave.
func (g *goPrompt) exitCheck(in string, breakline bool) bool {
	if !g.sawCtrlC {
		g.hooks.KeyPressed()
	}
	g.sawCtrlC = false
	g.lastText = in
	return g.exitRequested
}

// ReadLine reads one line. history replaces go-prompt's in-memory history
// (OptionHistory may be applied at any time), so recall matches the file:
// whole statements, no consecutive duplicates.
func (g *goPrompt) ReadLine(history []string) (string, error) {
	g.in.rearm()
	_ = prompt.OptionHistory(slices.Clone(history))(g.p)
	g.lastText, g.sawCtrlC, g.exitRequested = "", false, false
	line := g.p.Input()
	switch {
	case g.exitRequested:
		return "", errQuit
	case g.in.takeEntered():
		return line, nil
	}
	return "", io.EOF
}

// quietTitleWriter is go-prompt's stdout writer without the window-title
// escapes: go-prompt clears the terminal's title every time Input returns.
type quietTitleWriter struct{ prompt.ConsoleWriter }

func (quietTitleWriter) SetTitle(string) {}
func (quietTitleWriter) ClearTitle()     {}

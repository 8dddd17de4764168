//go:build unix

package repl

import (
	"strconv"

	prompt "github.com/c-bata/go-prompt"
)

// Colours in the line editor. go-prompt paints its completion menu (and a
// "window too small" notice) in fixed colours and writes "39;49" even for
// DefaultColor, so turning colours off takes both its options and a writer
// that never emits a colour parameter.

// noColorOptions sets every colour go-prompt offers to the terminal's
// default. The selected menu row and the scrollbar thumb keep a non-default
// background only as a marker: monochromeWriter shows it as reverse video,
// so the selection stays visible without colour.
func noColorOptions() []prompt.Option {
	d, marked := prompt.DefaultColor, prompt.White
	return []prompt.Option{
		prompt.OptionPrefixTextColor(d), prompt.OptionPrefixBackgroundColor(d),
		prompt.OptionInputTextColor(d), prompt.OptionInputBGColor(d),
		prompt.OptionPreviewSuggestionTextColor(d), prompt.OptionPreviewSuggestionBGColor(d),
		prompt.OptionSuggestionTextColor(d), prompt.OptionSuggestionBGColor(d),
		prompt.OptionSelectedSuggestionTextColor(d), prompt.OptionSelectedSuggestionBGColor(marked),
		prompt.OptionDescriptionTextColor(d), prompt.OptionDescriptionBGColor(d),
		prompt.OptionSelectedDescriptionTextColor(d), prompt.OptionSelectedDescriptionBGColor(marked),
		prompt.OptionScrollbarThumbColor(marked), prompt.OptionScrollbarBGColor(d),
	}
}

// monochromeWriter is a go-prompt writer that turns every colour request
// into plain attributes: reset, bold, and reverse video where a background
// colour was asked for. Cursor movement and erasing pass through.
type monochromeWriter struct{ prompt.ConsoleWriter }

// SetColor implements prompt.ConsoleWriter.
func (w monochromeWriter) SetColor(_, bg prompt.Color, bold bool) {
	seq := "\x1b[0"
	if bg != prompt.DefaultColor {
		seq += ";7"
	}
	if bold {
		seq += ";1"
	}
	w.WriteRawStr(seq + "m")
}

// SetDisplayAttributes implements prompt.ConsoleWriter; the colours are
// dropped, the attributes kept (go-prompt numbers them as SGR does: bold 1
// to crossed-out 9).
func (w monochromeWriter) SetDisplayAttributes(_, _ prompt.Color, attrs ...prompt.DisplayAttribute) {
	seq := "\x1b[0"
	for _, a := range attrs {
		if a >= prompt.DisplayBold && a <= prompt.DisplayCrossedOut {
			seq += ";" + strconv.Itoa(int(a))
		}
	}
	w.WriteRawStr(seq + "m")
}

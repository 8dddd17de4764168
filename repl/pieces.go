package repl

// Key bytes the input layer treats specially.
const (
	keyCtrlC = 0x03
	keyCtrlD = 0x04
	keyTab   = 0x09
	keyLF    = 0x0a
	keyCR    = 0x0d
	keyEsc   = 0x1b
	keyDel   = 0x7f
)

// nextPiece cuts the next piece go-prompt should see off the front of q.
// go-prompt maps a whole read to one key, and inserts anything it does not
// recognise as text; so a pasted "SELECT 1;\rSELECT 2;\r" must not reach it
// in one piece (the CRs would end up inside the line). Pieces are: a run of
// printable text; one Enter (CR, LF, or CR LF counted once); one escape
// sequence; or one other control byte.
func nextPiece(q []byte) (piece, rest []byte) {
	if len(q) == 0 {
		return nil, nil
	}
	switch b := q[0]; {
	case b == keyCR:
		if len(q) > 1 && q[1] == keyLF {
			return q[:1], q[2:]
		}
		return q[:1], q[1:]
	case b == keyEsc:
		n := escapeLen(q)
		return q[:n], q[n:]
	case b < 0x20 || b == keyDel:
		return q[:1], q[1:]
	}
	n := 1
	for n < len(q) && q[n] >= 0x20 && q[n] != keyDel {
		n++
	}
	return q[:n], q[n:]
}

// escapeLen is the length of the escape sequence at the start of q: CSI
// (ESC [ parameters final), SS3 (ESC O x), or ESC followed by one byte (Alt).
func escapeLen(q []byte) int {
	if len(q) < 2 {
		return len(q)
	}
	switch q[1] {
	case '[':
		for i := 2; i < len(q); i++ {
			if q[i] >= 0x40 && q[i] <= 0x7e {
				return i + 1
			}
		}
		return len(q)
	case 'O':
		if len(q) >= 3 {
			return 3
		}
		return len(q)
	}
	return 2
}

// isEnter reports whether a piece is the Enter key.
func isEnter(p []byte) bool { return len(p) == 1 && (p[0] == keyCR || p[0] == keyLF) }

// pasteTabs turns tabs into spaces in a read that carried more than one key:
// that is pasted text, where a tab is indentation, not a request to complete.
func pasteTabs(b []byte) {
	if len(b) < 2 || b[0] == keyEsc {
		return
	}
	for i, c := range b {
		if c == keyTab {
			b[i] = ' '
		}
	}
}

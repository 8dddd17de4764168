package parser

import (
	"sort"
	"strings"
)

// edit replaces src[start:end] with text in the rewritten statement.
type edit struct {
	start, end int // in the original input
	text       string
}

// rewritten is the text handed to sqlparser and the way back from its
// offsets to the original input. Blanked comments keep their length, so only
// edits move text; everything between edits maps by a constant shift.
type rewritten struct {
	text  string
	base  int       // original offset of text[0]
	edits []outEdit // in order
}

type outEdit struct {
	edit
	outStart, outEnd int // where the replacement sits in text
}

// splice applies edits (sorted, non-overlapping, within [base, base+len(buf)))
// to buf, which is src[base:…] with comments already blanked.
func splice(buf []byte, base int, edits []edit) rewritten {
	sort.Slice(edits, func(i, j int) bool { return edits[i].start < edits[j].start })
	var sb strings.Builder
	out := rewritten{base: base}
	at := 0
	for _, e := range edits {
		sb.Write(buf[at : e.start-base])
		oe := outEdit{edit: e, outStart: sb.Len()}
		sb.WriteString(e.text)
		oe.outEnd = sb.Len()
		out.edits = append(out.edits, oe)
		at = e.end - base
	}
	sb.Write(buf[at:])
	out.text = sb.String()
	return out
}

// origStart maps an offset in the rewritten text to the original input. An
// offset inside a replacement maps to the start of what it replaced, so an
// error in a rewritten path points at the path as the user wrote it.
func (r rewritten) origStart(o int) int {
	shift := 0 // original minus rewritten, after the edits passed so far
	for _, e := range r.edits {
		if o < e.outStart {
			break
		}
		if o < e.outEnd {
			return e.start
		}
		shift = e.end - e.outEnd - r.base
	}
	return o + shift + r.base
}

// origEnd maps an exclusive end offset; one that ends inside or at the end of
// a replacement maps to the end of what was replaced.
func (r rewritten) origEnd(o int) int {
	shift := 0
	for _, e := range r.edits {
		if o <= e.outStart {
			break
		}
		if o <= e.outEnd {
			return e.end
		}
		shift = e.end - e.outEnd - r.base
	}
	return o + shift + r.base
}

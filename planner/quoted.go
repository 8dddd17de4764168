package planner

import (
	"errors"
	"strings"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// Double quotes quote names (PartiQL, standard SQL), so status = "open"
// compares status with an attribute named open. ddbsql never guesses that a
// string was meant, but someone used to MySQL, where "open" is a string,
// must be able to tell why such a statement needs a Scan or finds nothing:
// the parser lists the lone double-quoted names written where a value
// usually goes, and the planner names them in a hint when planning fails,
// or in a note on the plan when it succeeds.

// hintedCodes are the errors a name meant as a string can cause: no key
// condition (PK = "x"), a column that does not exist or cannot be placed
// (no FROM, a join), a function given a name for a value.
var hintedCodes = map[diag.Code]bool{
	diag.CodeScanNotAllowed: true, diag.CodeUnknownColumn: true, diag.CodeAmbiguous: true, diag.CodeJoin: true,
	diag.CodeArguments: true, diag.CodeInvalid: true, diag.CodeUnsupported: true,
}

// suspectQuoted keeps the names that may have been meant as strings: those
// that are no key attribute of a table read (a key attribute certainly
// exists, so comparing with it is deliberate).
func (sp *selectPlanner) suspectQuoted(names []string) []string {
	var out []string
	for _, n := range names {
		known := false
		for _, f := range sp.froms {
			known = known || f.table.IsKeyAttr(n)
		}
		if !known {
			out = append(out, n)
		}
	}
	return out
}

// withQuotedHint puts the quoting hint before the error's own hint.
func withQuotedHint(err error, names []string) error {
	var pe *diag.Error
	if len(names) == 0 || !asPlanError(err, &pe) || !hintedCodes[pe.Code] {
		return err
	}
	out := *pe
	note := quotedNote(names)
	out.Hint = note
	var scan *ScanNeeded
	if errors.As(pe.Cause, &scan) {
		// The notes go with the Scan question (ScanNeeded.Notes).
		noted := *scan
		noted.Notes = append(append([]string(nil), scan.Notes...), note)
		out.Cause = &noted
	}
	if pe.Hint != "" {
		out.Hint += "\n" + pe.Hint
	}
	return &out
}

// quotedNote says that names are names, and how to write them as strings:
// "open" is a name here, not a string: … write 'open'.
func quotedNote(names []string) string {
	quotedNames := make([]string, len(names))
	strs := make([]string, len(names))
	for i, n := range names {
		quotedNames[i] = `"` + strings.ReplaceAll(n, `"`, `""`) + `"`
		strs[i] = "'" + strings.ReplaceAll(strings.ReplaceAll(n, `\`, `\\`), "'", "''") + "'"
	}
	const why = "double quotes quote names, as in PartiQL and standard SQL"
	if len(names) == 1 {
		return quotedNames[0] + " is a name here, not a string (" + why + "); for the string, write " + strs[0]
	}
	return strings.Join(quotedNames, ", ") + " are names here, not strings (" + why + "); for strings, write " + strings.Join(strs, ", ")
}

package session_test

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/ddbsql/ddbsql/exec/session"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
)

// A double-quoted name where a value was probably meant is explained
// before anything runs: as a note with a run, and before the Scan question
// when the statement needs one.
func TestQuotedValueNotes(t *testing.T) {
	const note = `note: "WS#acme" is a name here, not a string`
	var out, errOut bytes.Buffer
	cfg := session.DefaultConfig()
	cfg.Format = "csv"
	var shownBeforeQuestion string
	asked := 0
	cfg.ConfirmScan = func(_ context.Context, est planner.ScanEstimate) bool {
		asked++
		shownBeforeQuestion = errOut.String()
		return est.Table == "app"
	}
	s := session.New(memClient(t), &out, &errOut, cfg)
	if err := s.RunScript(context.Background(), `SELECT COUNT(*) AS n FROM app WHERE PK = "WS#acme"`); err != nil {
		t.Fatal(err)
	}
	if asked != 1 || !strings.Contains(shownBeforeQuestion, note) {
		t.Fatalf("asked %d times; stderr before the question: %q", asked, shownBeforeQuestion)
	}
	if strings.Count(errOut.String(), "note:") != 1 {
		t.Errorf("the note must be shown once:\n%s", errOut.String())
	}
	// No item has an attribute named WS#acme equal to its PK.
	if out.String() != "n\n0\n" {
		t.Errorf("out %q", out.String())
	}

	// Refused: the error carries the same advice as its hint.
	out.Reset()
	errOut.Reset()
	s.SetConfirmScan(func(context.Context, planner.ScanEstimate) bool { return false })
	err := s.RunScript(context.Background(), `SELECT * FROM app WHERE PK = "WS#acme"`)
	var pe *diag.Error
	if !errors.As(err, &pe) || pe.Phase != diag.Plan || pe.Code != diag.CodeScanNotAllowed || !strings.Contains(pe.Hint, `"WS#acme" is a name here`) {
		t.Fatalf("err %v", err)
	}
	if !strings.Contains(errOut.String(), note) || out.Len() != 0 {
		t.Errorf("stderr %q, out %q", errOut.String(), out.String())
	}

	// A statement that runs prints the note on stderr, the rows on stdout.
	out.Reset()
	errOut.Reset()
	if err := s.RunScript(context.Background(), `SELECT SK FROM app WHERE PK = 'WS#acme' AND SK = "META"`); err != nil {
		t.Fatal(err)
	}
	if want := `note: "META" is a name here, not a string`; !strings.HasPrefix(errOut.String(), want) || out.String() != "SK\n" {
		t.Errorf("stderr %q, out %q", errOut.String(), out.String())
	}
}

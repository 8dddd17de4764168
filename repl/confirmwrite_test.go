//go:build unix

package repl

import (
	"testing"

	"github.com/ddbsql/ddbsql/exec/write"
	"github.com/ddbsql/ddbsql/planner"
)

func TestWriteQuestion(t *testing.T) {
	got := writeQuestion(write.Confirmation{Kind: planner.WriteUpdate, Table: "app", Items: 12, WCU: 14, Keys: []string{"PK='a', SK='b'"}})
	if want := "UPDATE changes 12 items in app (~14 WCU), e.g. PK='a', SK='b'. Go ahead? [y/N] "; got != want {
		t.Errorf("got  %q\nwant %q", got, want)
	}
}

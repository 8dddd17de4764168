package session_test

import (
	"bytes"
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/session"
	"github.com/ddbsql/ddbsql/parser/diag"
)

// terminal is a fake terminal that stdout and stderr both write to: it
// keeps the lines on screen and the cursor (\r returns to the start of the
// line, \n starts a new one, other characters overwrite), and notes the
// state of the line when the first byte of output arrived.
type terminal struct {
	mu    sync.Mutex
	lines []string
	cur   []rune
	col   int

	progressWrites      int    // writes to stderr (the progress line)
	progressAfterOutput int    // of those, after stdout's first byte
	outputStarted       bool   // stdout has written
	lineAtOutput        string // the cursor's line when stdout first wrote
	colAtOutput         int
}

type terminalStream struct {
	t      *terminal
	stdout bool
}

func (s terminalStream) Write(b []byte) (int, error) {
	t := s.t
	t.mu.Lock()
	defer t.mu.Unlock()
	if s.stdout && !t.outputStarted {
		t.outputStarted, t.lineAtOutput, t.colAtOutput = true, string(t.cur), t.col
	}
	if !s.stdout {
		t.progressWrites++
		if t.outputStarted {
			t.progressAfterOutput++
		}
	}
	for _, r := range string(b) {
		switch r {
		case '\r':
			t.col = 0
		case '\n':
			t.lines = append(t.lines, string(t.cur))
			t.cur, t.col = nil, 0
		default:
			if t.col < len(t.cur) {
				t.cur[t.col] = r
			} else {
				t.cur = append(t.cur, r)
			}
			t.col++
		}
	}
	return len(b), nil
}

func (t *terminal) stdout() terminalStream { return terminalStream{t: t, stdout: true} }
func (t *terminal) stderr() terminalStream { return terminalStream{t: t} }

// screen is what the terminal shows, one string per line; the line under
// the cursor comes last.
func (t *terminal) screen() []string {
	t.mu.Lock()
	defer t.mu.Unlock()
	return append(append([]string(nil), t.lines...), string(t.cur))
}

// slowClient delays every read, so that the progress line has time to show;
// panicking ones panic after the delay.
type slowClient struct {
	dynamo.Client
	delay time.Duration
	panic bool
}

func (c slowClient) wait(ctx context.Context) {
	select {
	case <-time.After(c.delay):
	case <-ctx.Done():
	}
	if c.panic {
		panic("a bug in a read")
	}
}

func (c slowClient) Query(ctx context.Context, in *dynamodb.QueryInput, o ...func(*dynamodb.Options)) (*dynamodb.QueryOutput, error) {
	c.wait(ctx)
	return c.Client.Query(ctx, in, o...)
}

func (c slowClient) GetItem(ctx context.Context, in *dynamodb.GetItemInput, o ...func(*dynamodb.Options)) (*dynamodb.GetItemOutput, error) {
	c.wait(ctx)
	return c.Client.GetItem(ctx, in, o...)
}

// progressSession runs statements over client with the progress line on
// the fake terminal, shown after 10 ms; a positive timeout is --timeout.
func progressSession(t *testing.T, client dynamo.Client, format string, timeout time.Duration) (*session.Session, *terminal) {
	t.Helper()
	t.Cleanup(session.SetProgressDelay(10 * time.Millisecond))
	term := &terminal{}
	cfg := session.DefaultConfig()
	cfg.Progress, cfg.Format, cfg.Timeout = term.stderr(), format, timeout
	s := session.New(client, term.stdout(), &bytes.Buffer{}, cfg)
	return s, term
}

// checkErased checks that the progress line showed, was gone before the
// first byte of output (a blank line, cursor at its start), never came
// back, and is nowhere on the screen at the end.
func checkErased(t *testing.T, term *terminal) {
	t.Helper()
	term.mu.Lock()
	writes, after, started := term.progressWrites, term.progressAfterOutput, term.outputStarted
	line, col := term.lineAtOutput, term.colAtOutput
	term.mu.Unlock()
	if writes == 0 {
		t.Fatal("the progress line never showed; the test proves nothing")
	}
	if started && (strings.TrimSpace(line) != "" || col != 0) {
		t.Errorf("output started at column %d of the line %q: the progress line was not erased first", col, line)
	}
	if after > 0 {
		t.Errorf("the progress line was written %d times after the output started", after)
	}
	screen := term.screen()
	for _, l := range screen {
		if strings.Contains(l, "items read") {
			t.Errorf("the progress line is still on screen:\n%s", strings.Join(screen, "\n"))
			break
		}
	}
	if last := screen[len(screen)-1]; strings.TrimSpace(last) != "" {
		t.Errorf("the cursor is not at the start of an empty line: %q", last)
	}
}

func TestProgressIsErasedBeforeRows(t *testing.T) {
	for _, format := range []string{"table", "csv", "ndjson", "markdown"} {
		t.Run(format, func(t *testing.T) {
			s, term := progressSession(t, slowClient{Client: memClient(t), delay: 600 * time.Millisecond}, format, 0)
			if err := s.RunScript(context.Background(), "SELECT SK, title FROM app WHERE PK = 'WS#acme'"); err != nil {
				t.Fatal(err)
			}
			checkErased(t, term)
			if screen := strings.Join(term.screen(), "\n"); !strings.Contains(screen, "DOC#0001") {
				t.Fatalf("no rows on screen:\n%s", screen)
			}
		})
	}
}

func TestProgressStopsOnFailure(t *testing.T) {
	t.Run("a recovered panic", func(t *testing.T) {
		s, term := progressSession(t, slowClient{Client: memClient(t), delay: 600 * time.Millisecond, panic: true}, "table", 0)
		err := s.RunScript(context.Background(), "SELECT * FROM app WHERE PK = 'WS#acme' AND SK = 'META'")
		if errorCode(err) != diag.CodeInternal {
			t.Fatalf("err = %v, want the internal error a panic becomes", err)
		}
		checkStopped(t, term)
	})
	t.Run("a timeout", func(t *testing.T) {
		s, term := progressSession(t, slowClient{Client: memClient(t), delay: time.Minute}, "table", 600*time.Millisecond)
		err := s.RunScript(context.Background(), "SELECT * FROM app WHERE PK = 'WS#acme'")
		if errorCode(err) != diag.CodeTimeout {
			t.Fatalf("err = %v, want a timeout", err)
		}
		checkStopped(t, term)
	})
}

// checkStopped checks that the progress line was erased when the statement
// failed and that nothing draws it again afterwards.
func checkStopped(t *testing.T, term *terminal) {
	t.Helper()
	checkErased(t, term)
	term.mu.Lock()
	before := term.progressWrites
	term.mu.Unlock()
	time.Sleep(600 * time.Millisecond) // several ticks of the bar and of its spinner
	term.mu.Lock()
	after := term.progressWrites
	term.mu.Unlock()
	if after != before {
		t.Fatalf("the progress line was drawn %d more times after the statement ended", after-before)
	}
}

//go:build unix

package repl

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestPagerLineCount(t *testing.T) {
	p := newPagedOutput(&bytes.Buffer{}, 24, 10, "", nil)
	p.count([]byte("abc\n"))
	p.count([]byte(strings.Repeat("x", 25) + "\n")) // wraps twice, then ends
	p.count([]byte("日本語日本\n"))                      // 10 columns: exactly one line
	p.count([]byte("\t\tx"))                        // tab stops at 8 and 16: wraps
	p.count([]byte{0xe6, 0x97})                     // half a rune waits for the rest
	p.count([]byte{0xa5})
	if p.lines != 1+3+1+1 || p.col != 1+2 {
		t.Errorf("lines %d col %d", p.lines, p.col)
	}
}

func TestPagerShortOutputIsWrittenAsIs(t *testing.T) {
	var term bytes.Buffer
	p := newPagedOutput(&term, 5, 80, "false", func(err error) { t.Errorf("pager failed: %v", err) })
	p.Write([]byte("one\ntwo\nthree\n")) // 3 lines + the prompt fit in 5 rows
	if term.Len() != 0 {
		t.Fatal("output must wait until it is known to fit")
	}
	paged, err := p.Close()
	if paged || err != nil || term.String() != "one\ntwo\nthree\n" {
		t.Fatalf("paged %v err %v output %q", paged, err, term.String())
	}
}

func TestPagerTallOutputGoesToThePager(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "paged")
	var term bytes.Buffer
	p := newPagedOutput(&term, 5, 80, "cat > "+file, func(err error) { t.Errorf("pager failed: %v", err) })
	var want strings.Builder
	for i := 0; i < 50; i++ {
		line := strings.Repeat("row ", i%7) + "\n"
		want.WriteString(line)
		if _, err := p.Write([]byte(line)); err != nil {
			t.Fatal(err)
		}
	}
	paged, err := p.Close()
	if !paged || err != nil || term.Len() != 0 {
		t.Fatalf("paged %v err %v terminal %q", paged, err, term.String())
	}
	got, _ := os.ReadFile(file)
	if string(got) != want.String() {
		t.Errorf("the pager got %d bytes, want %d", len(got), want.Len())
	}
}

func TestPagerQuitEarly(t *testing.T) {
	p := newPagedOutput(&bytes.Buffer{}, 3, 80, "head -c 1 >/dev/null", func(err error) { t.Errorf("pager failed: %v", err) })
	line := []byte(strings.Repeat("x", 1000) + "\n")
	deadline := time.Now().Add(20 * time.Second)
	var err error
	for err == nil && time.Now().Before(deadline) {
		_, err = p.Write(line)
	}
	if !errors.Is(err, errPagerClosed) || !p.Quit() {
		t.Fatalf("writes after the pager quit: %v (quit %v)", err, p.Quit())
	}
	if paged, _ := p.Close(); !paged {
		t.Error("Close should report that the pager ran")
	}
}

func TestPagerThatCannotStart(t *testing.T) {
	var term bytes.Buffer
	var warned error
	p := newPagedOutput(&term, 3, 80, "x", func(err error) { warned = err })
	p.shell = filepath.Join(t.TempDir(), "no-such-shell")
	text := "1\n2\n3\n4\n"
	p.Write([]byte(text))
	p.Close()
	if warned == nil || term.String() != text {
		t.Fatalf("warned %v, terminal %q", warned, term.String())
	}
}

package main

import (
	"bytes"
	"fmt"
	"os/exec"
	"strings"
	"time"
)

// measured is the fastest of a command's runs.
type measured struct {
	wall   time.Duration
	rss    int64 // peak resident set size, bytes
	answer answer
	failed bool
}

// best runs argv runs times in dir and keeps the fastest run; every run's
// answer must parse.
func best(runs int, dir string, parse func([]byte) (answer, error), argv []string) (measured, error) {
	var b measured
	for i := 0; i < runs; i++ {
		m, err := once(dir, parse, argv)
		if err != nil {
			return m, err
		}
		if i == 0 || m.wall < b.wall {
			b = m
		}
	}
	return b, nil
}

func once(dir string, parse func([]byte) (answer, error), argv []string) (measured, error) {
	var out, errOut bytes.Buffer
	c := exec.Command(argv[0], argv[1:]...)
	c.Dir, c.Stdout, c.Stderr = dir, &out, &errOut
	start := time.Now()
	err := c.Run()
	m := measured{wall: time.Since(start)}
	if err != nil {
		return m, fmt.Errorf("%s: %v\n%s", argv[0], err, lastLines(errOut.String(), 10))
	}
	m.rss = peakRSS(c.ProcessState)
	a, err := parse(out.Bytes())
	if err != nil {
		return m, fmt.Errorf("%s: unreadable answer: %v\n%s", argv[0], err, lastLines(out.String(), 10))
	}
	m.answer = a
	return m, nil
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}

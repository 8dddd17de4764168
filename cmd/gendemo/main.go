package main

import (
	"bytes"
	"compress/gzip"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
)

// Files written into the output directory.
const (
	modelFile  = "demo-model.json.gz"
	readmeFile = "README.md"
)

func main() {
	out := flag.String("out", "", "output directory (default: exec/dynamo/offline/demodata of the module)")
	check := flag.Bool("check", false, "only check that the output directory is up to date")
	flag.Parse()
	if err := run(*out, *check); err != nil {
		fmt.Fprintln(os.Stderr, "gendemo:", err)
		os.Exit(1)
	}
}

func run(out string, check bool) error {
	if out == "" {
		root, err := moduleRoot()
		if err != nil {
			return err
		}
		out = filepath.Join(root, "exec", "dynamo", "offline", "demodata")
	}
	files, err := render()
	if err != nil {
		return err
	}
	if check {
		return checkDir(out, files)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return err
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(out, name), data, 0o644); err != nil {
			return err
		}
	}
	ts := tables()
	n := 0
	for _, t := range ts {
		n += len(t.Items)
	}
	fmt.Printf("gendemo: wrote %d tables, %d items to %s\n", len(ts), n, out)
	return nil
}

// render builds every output file.
func render() (map[string][]byte, error) {
	ts := tables()
	if err := validate(ts); err != nil {
		return nil, err
	}
	model, err := gzipped(writeModel(ts))
	if err != nil {
		return nil, err
	}
	return map[string][]byte{modelFile: model, readmeFile: writeReadme(ts)}, nil
}

// gzipped compresses deterministically: no name, no modification time.
func gzipped(data []byte) ([]byte, error) {
	var b bytes.Buffer
	zw, err := gzip.NewWriterLevel(&b, gzip.BestCompression)
	if err != nil {
		return nil, err
	}
	if _, err := zw.Write(data); err != nil {
		return nil, err
	}
	if err := zw.Close(); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// checkDir compares files with what is in dir (gzip files by content,
// since compressed bytes may differ between Go versions).
func checkDir(dir string, files map[string][]byte) error {
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			return fmt.Errorf("%s is out of date (run go run ./cmd/gendemo): %w", dir, err)
		}
		if filepath.Ext(name) == ".gz" {
			if got, err = gunzip(got); err != nil {
				return fmt.Errorf("%s: %w", name, err)
			}
			if want, err = gunzip(want); err != nil {
				return err
			}
		}
		if !bytes.Equal(got, want) {
			return fmt.Errorf("%s is out of date: run go run ./cmd/gendemo", filepath.Join(dir, name))
		}
	}
	return nil
}

func gunzip(data []byte) ([]byte, error) {
	zr, err := gzip.NewReader(bytes.NewReader(data))
	if err != nil {
		return nil, err
	}
	return io.ReadAll(zr)
}

// moduleRoot finds the directory holding go.mod, upwards from here.
func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("no go.mod above the working directory; pass -out")
		}
		dir = parent
	}
}

package format

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// Header describes the result's columns. It is passed once, to Begin.
type Header struct {
	// Columns are the output column names in select-list order. Every batch
	// has exactly these fields, in this order; cells are matched by position.
	// Ignored when Dynamic is set.
	Columns []string
	// Dynamic marks a SELECT * result: each batch's fields are the attributes
	// present in that batch, and batches may disagree.
	Dynamic bool
	// KeyColumns are the table's key attributes (partition key, then sort
	// key). With Dynamic they always come first; the rest sort by name.
	KeyColumns []string
}

// Writer renders a result, batch by batch.
type Writer interface {
	// Begin starts the output. It is called exactly once, first.
	Begin(h Header) error
	// WriteBatch renders one batch. It neither retains nor releases rec: what
	// a buffering format keeps is copied out first.
	WriteBatch(rec arrow.RecordBatch) error
	// End finishes and flushes the output. It must be called exactly once
	// after Begin, also for zero rows and after a failed WriteBatch, unless
	// the result is abandoned with Abort.
	End() error
	// Abort abandons a result that will not be ended (the statement
	// failed): it releases what the writer holds, such as the temporary
	// file of the parquet and arrow formats, and writes nothing more. It
	// may be called at any time, also after End, and more than once.
	Abort()
}

// Options tune the writers.
type Options struct {
	// NullText shows NULL and missing cells in table, expanded and markdown
	// output. Empty means DefaultNullText.
	NullText string
	// MaxBufferedRows bounds how many rows csv and tsv hold back in Dynamic
	// mode to learn the column union before writing the header. Zero means
	// DefaultMaxBufferedRows; a negative value buffers until End.
	MaxBufferedRows int
	// Expanded prints the table format as one "column | value" block per row
	// (psql's \x). Other formats ignore it.
	Expanded bool
	// Mem allocates the Arrow buffers of the parquet and arrow writers
	// (nil: memory.DefaultAllocator).
	Mem memory.Allocator
	// TempDir is where the parquet and arrow writers spool the result
	// until End (--temp-dir; empty: os.TempDir()).
	TempDir string
}

// Defaults for Options' zero values.
const (
	DefaultNullText        = "NULL"
	DefaultMaxBufferedRows = 10000
)

// ErrUnknownFormat is wrapped by New's error for a name it does not know.
var ErrUnknownFormat = errors.New("unknown output format")

// formats lists the writers in the order Names reports them; the first is
// the default.
var formats = []struct {
	name string
	make func(w io.Writer, opt Options) impl
}{
	{"table", newTableWriter},
	{"csv", newCSVWriter},
	{"tsv", newTSVWriter},
	{"json", newJSONWriter},
	{"ndjson", newNDJSONWriter},
	{"markdown", newMarkdownWriter},
	{"parquet", newParquetWriter},
	{"arrow", newArrowWriter},
}

// binaryFormats write files, not text: never to a terminal, and one
// result per file.
var binaryFormats = map[string]bool{"parquet": true, "arrow": true}

// IsBinary reports whether a format name (case-insensitive) writes a
// binary file (Parquet, Arrow IPC) rather than text.
func IsBinary(name string) bool { return binaryFormats[strings.ToLower(strings.TrimSpace(name))] }

// Names returns the valid format names; the first is the default.
func Names() []string {
	out := make([]string, len(formats))
	for i, f := range formats {
		out[i] = f.name
	}
	return out
}

// New returns the writer for a format name (case-insensitive).
func New(name string, w io.Writer, opt Options) (Writer, error) {
	want := strings.ToLower(strings.TrimSpace(name))
	for _, f := range formats {
		if f.name == want {
			return &guard{impl: f.make(w, opt.withDefaults())}, nil
		}
	}
	return nil, fmt.Errorf("%w %q; valid formats: %s", ErrUnknownFormat, name, strings.Join(Names(), ", "))
}

func (o Options) withDefaults() Options {
	if o.NullText == "" {
		o.NullText = DefaultNullText
	}
	if o.MaxBufferedRows == 0 {
		o.MaxBufferedRows = DefaultMaxBufferedRows
	}
	return o
}

package offline

import (
	"context"
	"encoding/binary"
	"errors"
	"hash/maphash"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner/value"
)

// batchSize is how many checked items are stored at a time.
const batchSize = 256

// sink writes one table's items into memdb, in order: it checks each
// item's key attributes (presence and type), rejects duplicate keys with
// both positions, creates the table once the key types are known, and
// stores them in batches through the DB's Loader.
type sink struct {
	ctx     context.Context
	w       *memdb.Loader
	spec    *tableSpec
	created func(name string) // records a created table, for rollback
	prog    *Progress         // counts the items written (nil: not counted)

	made     bool
	typeFrom []pos // where an inferred key type was first seen
	// check, when set, is memdb's check of an item, made by the decoding
	// workers (see pump); the items go to emit, in batches, instead of
	// being stored (a streamed Scan).
	check func([]memdb.NamedValue, memdb.Skipped) (memdb.FedItem, error)
	emit  func([]memdb.FedItem) error
	fed   []memdb.FedItem
	// peek stops the source at its first item, once its key types are known.
	peek bool
	// out, when set, takes each batch of checked items (with where they
	// are) instead of memdb (ReadItems).
	out func([][]memdb.NamedValue, []pos) error

	seed1, seed2 maphash.Seed
	seen         map[[2]uint64]seenAt
	files        []string
	fileIndex    map[string]uint32
	buf          []byte

	batch [][]memdb.NamedValue
	bpos  []pos
	count int
}

// seenAt is where a key was first seen, compactly: file index and line.
type seenAt struct{ file, line uint32 }

func newSink(ctx context.Context, w *memdb.Loader, spec *tableSpec, created func(string)) *sink {
	return &sink{
		ctx: ctx, w: w, spec: spec, created: created,
		typeFrom:  make([]pos, len(spec.keys)),
		seed1:     maphash.MakeSeed(),
		seed2:     maphash.MakeSeed(),
		seen:      map[[2]uint64]seenAt{},
		fileIndex: map[string]uint32{},
		batch:     make([][]memdb.NamedValue, 0, batchSize),
	}
}

// errPeeked stops a source read only for its key types (sink.peek).
var errPeeked = errors.New("peeked")

// prepared is a sink for spec's table, which exists already with the key
// types spec holds (inferred at typeFrom, when they were).
func (s *sink) prepared(typeFrom []pos) *sink {
	s.made = true
	copy(s.typeFrom, typeFrom)
	return s
}

// reserve sizes the duplicate index for n items.
func (s *sink) reserve(n int) {
	if len(s.seen) == 0 {
		s.seen = make(map[[2]uint64]seenAt, n)
	}
}

// add checks an item and queues it for writing.
func (s *sink) add(item []memdb.NamedValue, p pos) error {
	if err := s.checkKeys(item, p); err != nil {
		return err
	}
	if s.peek {
		return errPeeked
	}
	if err := s.ensureTable(); err != nil {
		return err
	}
	if err := s.checkDuplicate(item, p); err != nil {
		return err
	}
	s.batch = append(s.batch, item)
	s.bpos = append(s.bpos, p)
	s.count++
	if len(s.batch) == batchSize {
		return s.flush()
	}
	return nil
}

// addFed is add for an item the workers checked as memdb would (fed, or
// why memdb rejects it): the same checks in the same order, the item sent
// on instead of stored.
func (s *sink) addFed(item []memdb.NamedValue, fed memdb.FedItem, rejected error, p pos) error {
	if err := s.checkKeys(item, p); err != nil {
		return err
	}
	if s.peek {
		return errPeeked
	}
	if err := s.checkDuplicate(item, p); err != nil {
		return err
	}
	if rejected != nil {
		return rejectedItem(p, rejected)
	}
	s.fed = append(s.fed, fed)
	s.count++
	if len(s.fed) == batchSize {
		return s.flushFed()
	}
	return nil
}

// flushFed sends the items addFed queued.
func (s *sink) flushFed() error {
	if len(s.fed) == 0 {
		return nil
	}
	err := s.emit(s.fed)
	s.fed = make([]memdb.FedItem, 0, batchSize)
	return err
}

// rejectedItem is the error for an item memdb rejects, with its reason.
func rejectedItem(p pos, err error) error {
	return &diag.Error{Phase: diag.Load, Code: diag.CodeBadItem, Pos: diag.Pos{Source: p.path, Line: p.line},
		Msg: "DynamoDB would reject this item: " + apiMessage(err), Cause: err}
}

// finish writes what is queued and creates the table if no item did.
func (s *sink) finish() error {
	for i := range s.spec.keys {
		if s.spec.keys[i].Type == "" {
			s.spec.keys[i].Type = types.ScalarAttributeTypeS // an empty source: any type will do
		}
	}
	if err := s.ensureTable(); err != nil {
		return err
	}
	return s.flush()
}

func (s *sink) checkKeys(item []memdb.NamedValue, p pos) error {
	for i := range s.spec.keys {
		k := &s.spec.keys[i]
		av := attrOf(item, k.Name)
		if av.Kind() == value.Missing {
			role := "partition key"
			if i == 1 {
				role = "sort key"
			}
			return at(diag.CodeMissingKey, p, "item has no %s %s (table %s has key %s)", role, k.Name, s.spec.name, keyNames(s.spec.keys))
		}
		tag := typeTag(av)
		if k.Type == "" {
			if _, ok := scalarType(tag); !ok {
				return at(diag.CodeKeyType, p, "key %s is a %s; key attributes must be S, N or B", k.Name, tag)
			}
			k.Type, s.typeFrom[i] = types.ScalarAttributeType(tag), p
			continue
		}
		if tag != string(k.Type) {
			return at(diag.CodeKeyType, p, "key %s is %s here, but the table's %s is %s (%s)", k.Name, tag, k.Name, k.Type, s.typeOrigin(i))
		}
	}
	return nil
}

// typeOrigin says where key i's type came from.
func (s *sink) typeOrigin(i int) string {
	if s.typeFrom[i].path != "" {
		return "as in the first item, at " + s.typeFrom[i].String()
	}
	return "declared by " + s.spec.keysFrom
}

func (s *sink) ensureTable() error {
	if s.made {
		return nil
	}
	in, err := s.spec.createInput()
	if err == nil {
		_, err = s.w.CreateTable(s.ctx, in)
	}
	if ctxErr := s.ctx.Err(); ctxErr != nil {
		return ctxErr
	}
	if err != nil {
		return &diag.Error{Phase: diag.Load, Code: diag.CodeBadModel, Pos: diag.Pos{Source: s.spec.from}, Msg: "cannot create table " + s.spec.name + ": " + apiMessage(err), Cause: err}
	}
	s.made = true
	s.created(s.spec.name)
	return nil
}

// checkDuplicate remembers the item's key by a 128-bit hash and rejects a
// key seen before, naming both positions.
func (s *sink) checkDuplicate(item []memdb.NamedValue, p pos) error {
	s.buf = s.buf[:0]
	for _, k := range s.spec.keys {
		b := keyBytes(attrOf(item, k.Name))
		s.buf = binary.AppendUvarint(s.buf, uint64(len(b)))
		s.buf = append(s.buf, b...)
	}
	h := [2]uint64{maphash.Bytes(s.seed1, s.buf), maphash.Bytes(s.seed2, s.buf)}
	if first, dup := s.seen[h]; dup {
		desc := ""
		for i, k := range s.spec.keys {
			if i > 0 {
				desc += ", "
			}
			desc += k.Name + "=" + keyText(attrOf(item, k.Name))
		}
		prev := pos{path: s.files[first.file], line: int(first.line)}
		return at(diag.CodeDuplicateKey, p, "duplicate key %s: the same key is at %s", desc, prev)
	}
	s.seen[h] = seenAt{file: s.fileID(p.path), line: uint32(p.line)}
	return nil
}

func (s *sink) fileID(path string) uint32 {
	id, ok := s.fileIndex[path]
	if !ok {
		id = uint32(len(s.files))
		s.files = append(s.files, path)
		s.fileIndex[path] = id
	}
	return id
}

// flush stores the queued items; the first one memdb rejects is reported
// at its own position, with DynamoDB's reason.
func (s *sink) flush() error {
	if len(s.batch) == 0 {
		return nil
	}
	if s.out != nil {
		err := s.out(s.batch, s.bpos)
		clear(s.batch)
		s.batch, s.bpos = s.batch[:0], s.bpos[:0]
		return err
	}
	i, err := s.w.PutValues(s.ctx, s.spec.name, s.batch)
	if err != nil {
		if ctxErr := s.ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		return rejectedItem(s.bpos[min(i, len(s.bpos)-1)], err)
	}
	s.prog.addItems(len(s.batch))
	clear(s.batch) // the stored items are encoded copies: drop the decoded maps now
	s.batch, s.bpos = s.batch[:0], s.bpos[:0]
	return nil
}

// attrOf is the item's attribute name, or Missing.
func attrOf(item []memdb.NamedValue, name string) value.Value {
	for _, nv := range item {
		if nv.Name == name {
			return nv.Value
		}
	}
	return value.MissingValue()
}

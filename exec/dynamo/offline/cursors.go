package offline

import (
	"sort"
	"strings"
	"sync"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// Paginated streamed Scans continue their stream: after a page that ends
// with a LastEvaluatedKey, the stream is kept under that key (and the
// table and segment), and the request that passes it back as
// ExclusiveStartKey takes it up where the page stopped. A request whose
// ExclusiveStartKey names no kept stream starts a new one and skips to
// the item after that key. Streams that nobody continues (a statement
// stopped by LIMIT) are dropped, oldest first, past maxCursors.

// maxCursors bounds the streams kept for continuation.
const maxCursors = 64

type cursorKey struct {
	table          string
	segment, total int32
	after          string // keyID of the LastEvaluatedKey
	need           string // the attributes the stream decodes (scanNeeds' id)
}

type cursor struct {
	st  *stream
	seq uint64
}

type cursors struct {
	mu  sync.Mutex
	m   map[cursorKey]*cursor
	seq uint64
}

// take removes and returns the stream kept under k (nil: none).
func (c *cursors) take(k cursorKey) *stream {
	if k.after == "" {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	cur := c.m[k]
	if cur == nil {
		return nil
	}
	delete(c.m, k)
	return cur.st
}

// has reports whether a stream is kept under k.
func (c *cursors) has(k cursorKey) bool {
	if k.after == "" {
		return false
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.m[k] != nil
}

// put keeps st under k, dropping the oldest kept stream past maxCursors.
func (c *cursors) put(k cursorKey, st *stream) {
	c.mu.Lock()
	c.seq++
	if old := c.m[k]; old != nil {
		defer old.st.close()
	}
	c.m[k] = &cursor{st: st, seq: c.seq}
	var evict *stream
	if len(c.m) > maxCursors {
		var oldest cursorKey
		first := true
		for key, cur := range c.m {
			if first || cur.seq < c.m[oldest].seq {
				oldest, first = key, false
			}
		}
		evict = c.m[oldest].st
		delete(c.m, oldest)
	}
	c.mu.Unlock()
	if evict != nil {
		evict.close()
	}
}

// closeAll stops every kept stream.
func (c *cursors) closeAll() {
	c.mu.Lock()
	kept := c.m
	c.m = map[cursorKey]*cursor{}
	c.mu.Unlock()
	for _, cur := range kept {
		cur.st.close()
	}
}

// keyID is a key's identity as text: its attributes in name order, each
// with its type and value ("" for no key).
func keyID(key map[string]types.AttributeValue) string {
	if len(key) == 0 {
		return ""
	}
	names := make([]string, 0, len(key))
	for n := range key {
		names = append(names, n)
	}
	sort.Strings(names)
	var b strings.Builder
	for _, n := range names {
		b.WriteString(n)
		b.WriteByte(0)
		switch v := key[n].(type) {
		case *types.AttributeValueMemberS:
			b.WriteString("S\x00" + v.Value)
		case *types.AttributeValueMemberN:
			b.WriteString("N\x00" + v.Value)
		case *types.AttributeValueMemberB:
			b.WriteString("B\x00" + string(v.Value))
		default:
			b.WriteString("?")
		}
		b.WriteByte(0)
	}
	return b.String()
}

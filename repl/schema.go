package repl

import (
	"context"
	"sync"
	"time"

	"github.com/ddbsql/ddbsql/exec/engine"
	"github.com/ddbsql/ddbsql/planner"
)

// catalog is what completion needs from exec/dynamo.Catalog.
type catalog interface {
	Tables(ctx context.Context) ([]string, error)
	Table(ctx context.Context, name string) (*planner.TableDef, error)
	Refresh()
}

// Waits that bound how long completion may hold up typing on a cache miss;
// a look-up that takes longer goes on in the background and its answer
// shows from the next key on.
const (
	listWait     = 500 * time.Millisecond
	describeWait = 300 * time.Millisecond
	lookupTTL    = 15 * time.Second // one look-up's own deadline
	retryAfter   = 10 * time.Second // a failed look-up is not repeated sooner
)

// schemaCache holds the table list and table descriptions for completion,
// loaded through the session's catalog (which caches them too) without
// ever blocking the editor for more than a short wait.
type schemaCache struct {
	cat  catalog
	base context.Context

	mu       sync.Mutex
	gen      int
	names    []string
	listed   bool
	listing  chan struct{}
	defs     map[string]*planner.TableDef
	inflight map[string]chan struct{}
	failed   map[string]time.Time // "" is the table list
}

func newSchemaCache(ctx context.Context, cat catalog) *schemaCache {
	return &schemaCache{cat: cat, base: ctx, defs: map[string]*planner.TableDef{},
		inflight: map[string]chan struct{}{}, failed: map[string]time.Time{}}
}

// Refresh forgets everything (\refresh), also in the session's catalog.
func (c *schemaCache) Refresh() {
	c.cat.Refresh()
	c.mu.Lock()
	defer c.mu.Unlock()
	c.gen++
	c.names, c.listed, c.listing = nil, false, nil
	c.defs = map[string]*planner.TableDef{}
	c.inflight = map[string]chan struct{}{}
	c.failed = map[string]time.Time{}
}

// recentlyFailed reports whether a look-up failed less than retryAfter ago
// (callers hold mu): completion then does not wait for it again.
func (c *schemaCache) recentlyFailed(key string) bool {
	t, ok := c.failed[key]
	return ok && time.Since(t) < retryAfter
}

// TableNames returns the table list, waiting at most wait for ListTables.
func (c *schemaCache) TableNames(wait time.Duration) []string {
	c.mu.Lock()
	if c.listed {
		defer c.mu.Unlock()
		return c.names
	}
	if c.recentlyFailed("") {
		defer c.mu.Unlock()
		return c.names
	}
	if c.listing == nil {
		c.listing = make(chan struct{})
		go c.list(c.gen, c.listing)
	}
	done := c.listing
	c.mu.Unlock()
	waitFor(done, wait)
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.names
}

func (c *schemaCache) list(gen int, done chan struct{}) {
	defer close(done)
	ctx, cancel := context.WithTimeout(c.base, lookupTTL)
	defer cancel()
	var names []string
	// A panic in the look-up is a failed look-up: completion does without
	// the names, and the statement that needs them reports the problem.
	err := engine.Safely(func() (err error) {
		names, err = c.cat.Tables(ctx)
		return err
	})
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return
	}
	if err != nil {
		c.listing = nil
		c.failed[""] = time.Now()
		return
	}
	c.names, c.listed = names, true
}

// Table returns a table's description, waiting at most wait; nil when it
// is not known (yet).
func (c *schemaCache) Table(name string, wait time.Duration) *planner.TableDef {
	return c.Describe([]string{name}, wait)[name]
}

// Describe returns the descriptions of names that are known within wait,
// starting look-ups for the others.
func (c *schemaCache) Describe(names []string, wait time.Duration) map[string]*planner.TableDef {
	out := map[string]*planner.TableDef{}
	var waits []chan struct{}
	c.mu.Lock()
	for _, n := range names {
		if d, ok := c.defs[n]; ok {
			out[n] = d
			continue
		}
		if c.recentlyFailed(n) {
			continue
		}
		ch, ok := c.inflight[n]
		if !ok {
			ch = make(chan struct{})
			c.inflight[n] = ch
			go c.describe(c.gen, n, ch)
		}
		waits = append(waits, ch)
	}
	c.mu.Unlock()
	if len(waits) == 0 {
		return out
	}
	deadline := time.After(wait)
	for _, ch := range waits {
		select {
		case <-ch:
		case <-deadline:
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, n := range names {
		if d, ok := c.defs[n]; ok {
			out[n] = d
		}
	}
	return out
}

func (c *schemaCache) describe(gen int, name string, done chan struct{}) {
	defer close(done)
	ctx, cancel := context.WithTimeout(c.base, lookupTTL)
	defer cancel()
	var def *planner.TableDef
	err := engine.Safely(func() (err error) {
		def, err = c.cat.Table(ctx, name)
		return err
	})
	c.mu.Lock()
	defer c.mu.Unlock()
	if gen != c.gen {
		return
	}
	if err != nil {
		delete(c.inflight, name) // not a table, or a failure: ask again later
		c.failed[name] = time.Now()
		return
	}
	c.defs[name] = def
}

func waitFor(ch chan struct{}, d time.Duration) {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ch:
	case <-t.C:
	}
}

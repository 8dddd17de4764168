package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
	"github.com/ddbsql/ddbsql/exec/dynamo/offline"
)

// dataFlags collects --data sources and the --key flags that go with them.
type dataFlags struct {
	sources    []offline.Source
	defaultKey []string // a --key given before any --data
	err        error
}

// dataFlag is the flag.Value of --data.
type dataFlag struct{ d *dataFlags }

func (f dataFlag) String() string {
	if f.d == nil {
		return ""
	}
	var paths []string
	for _, s := range f.d.sources {
		paths = append(paths, s.Path)
	}
	return strings.Join(paths, ", ")
}

func (f dataFlag) Set(v string) error {
	src := offline.ParseDataFlag(v)
	src.Keys = f.d.defaultKey
	f.d.sources = append(f.d.sources, src)
	return nil
}

// keyFlag is the flag.Value of --key: it applies to the --data before it.
type keyFlag struct{ d *dataFlags }

func (f keyFlag) String() string { return "" }

func (f keyFlag) Set(v string) error {
	keys, err := offline.ParseKeyFlag(v)
	if err != nil {
		return err
	}
	if n := len(f.d.sources); n > 0 {
		f.d.sources[n-1].Keys = keys
		return nil
	}
	f.d.defaultKey = keys
	return nil
}

// offlineClient is the in-process backend, named for the REPL prompt.
type offlineClient struct {
	*memdb.DB
	label string
}

// Label names the connection ("demo" or "offline").
func (c offlineClient) Label() string { return c.label }

// openOffline loads the demo and/or --data sources into an in-process,
// read-only DynamoDB.
func openOffline(ctx context.Context, cfg *config) (offlineClient, error) {
	db := memdb.New()
	label := "offline"
	if cfg.demo {
		label = "demo"
		if _, err := offline.LoadDemo(ctx, db); err != nil {
			return offlineClient{}, fmt.Errorf("loading the demo tables: %w", err)
		}
	}
	if len(cfg.data.sources) > 0 {
		if _, err := offline.Load(ctx, db, cfg.data.sources); err != nil {
			return offlineClient{}, err
		}
	}
	db.Freeze()
	return offlineClient{DB: db, label: label}, nil
}

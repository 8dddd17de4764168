package memdb_test

import (
	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/dynamo/memdb"
)

var (
	_ dynamo.Client = (*memdb.DB)(nil)
	_ dynamo.Writer = (*memdb.DB)(nil)
	_ dynamo.Writer = (*memdb.Loader)(nil)
)

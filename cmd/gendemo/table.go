package main

import "github.com/ddbsql/ddbsql/planner/value"

// valueItem is one item: an M value of its attributes.
type valueItem = value.Value

// table is one demo table: its key schema, indexes and items.
type table struct {
	Name  string
	About string // one line for the README
	PK    key
	SK    key // Name "" when the table has no sort key
	GSIs  []index
	LSIs  []index
	Items []valueItem
}

type key struct{ Name, Type string }

type index struct {
	Name       string
	PK, SK     key
	Projection string   // ALL, KEYS_ONLY or INCLUDE
	Include    []string // INCLUDE's non-key attributes
}

// tables builds every demo table, in the order the model lists them.
func tables() []*table {
	return []*table{appTable(), leaderboardTable(), usersTable(), customersTable(), ordersTable(), productsTable(), metricsTable()}
}

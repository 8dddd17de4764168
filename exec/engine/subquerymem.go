package engine

import (
	"fmt"

	"github.com/ddbsql/ddbsql/exec/eval"
	"github.com/ddbsql/ddbsql/exec/spill"
)

// subqueryMemory reserves from Env.Memory what a subquery's rows retain.
// The rows cannot spill (every outer row may look any of them up), so a
// subquery past the limit fails with spill.Exceeded naming it.
type subqueryMemory struct {
	env      *Env
	reserved int64
}

// grow reserves what rows hold beyond the reservation so far.
func (m *subqueryMemory) grow(rows *eval.SubqueryRows, number int) error {
	delta := rows.Bytes() - m.reserved
	if delta <= 0 {
		return nil
	}
	if !m.env.Memory.TryReserve(delta) {
		return spill.Exceeded(fmt.Sprintf("the rows of subquery %d", number), m.env.Memory, rows.Bytes())
	}
	m.reserved += delta
	return nil
}

// release gives the reservation back.
func (m *subqueryMemory) release() {
	m.env.Memory.Release(m.reserved)
	m.reserved = 0
}

package session

import (
	"sort"

	"github.com/ddbsql/ddbsql/planner"
)

// tableNotes are Config.TableNotes of the tables p reads, in name order.
func (s *Session) tableNotes(p *planner.Plan) []string {
	if len(s.cfg.TableNotes) == 0 {
		return nil
	}
	seen := map[string]bool{}
	planner.Walk(p.Root, func(n planner.Node, _ int) bool {
		if a, ok := n.(*planner.Access); ok {
			seen[a.Table] = true
		}
		return true
	})
	var names []string
	for name := range seen {
		if s.cfg.TableNotes[name] != "" {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	out := make([]string, len(names))
	for i, name := range names {
		out[i] = s.cfg.TableNotes[name]
	}
	return out
}

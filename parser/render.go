package parser

import "github.com/xwb1989/sqlparser"

// Render prints a node of s.AST as SQL with every synthetic column shown as
// the document path the user wrote (info.rating.imdb, tags[0]), for EXPLAIN
// output and error messages; sqlparser.String would show the synthetic name.
func (s *Select) Render(node sqlparser.SQLNode) string {
	buf := sqlparser.NewTrackedBuffer(func(buf *sqlparser.TrackedBuffer, node sqlparser.SQLNode) {
		if c, ok := node.(*sqlparser.ColName); ok {
			if p, ok := s.Path(c); ok {
				buf.WriteString(p.String())
				return
			}
		}
		node.Format(buf)
	})
	buf.Myprintf("%v", node)
	return buf.String()
}

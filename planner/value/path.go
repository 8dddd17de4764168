package value

import (
	"strconv"
	"strings"
)

// PathElem is one step of a DynamoDB document path: a map member or a list index.
type PathElem struct {
	Name    string
	Index   int
	IsIndex bool
}

// Path is a DynamoDB document path such as info.rating or tags[0]; the first
// element is always a top-level attribute name.
type Path []PathElem

// Attr is the top-level attribute the path starts at.
func (p Path) Attr() string { return p[0].Name }

// Get navigates the path inside an item's top-level attribute value.
func (p Path) Get(top Value) Value {
	v, _ := p.Lookup(top)
	return v
}

// Lookup is Get that also reports where a list index met a set: setAt is
// the position in p of that index step (so p[:setAt] is the set), or 0 when
// none did. Sets are unordered, so an index into one is a mistake to
// report, not an absent element; v is then Missing.
func (p Path) Lookup(top Value) (v Value, setAt int) {
	v = top
	for i := 1; i < len(p); i++ {
		e := p[i]
		if e.IsIndex {
			if v.IsSet() {
				return Value{}, i
			}
			v = v.Index(e.Index)
		} else {
			v = v.Attr(e.Name)
		}
		if v.kind == Missing {
			return v, 0
		}
	}
	return v, 0
}

// String renders the path the way a user writes it in ddbsql, with backticks
// around names that are not plain identifiers.
func (p Path) String() string {
	var sb strings.Builder
	for i, e := range p {
		switch {
		case e.IsIndex:
			sb.WriteByte('[')
			sb.WriteString(strconv.Itoa(e.Index))
			sb.WriteByte(']')
		default:
			if i > 0 {
				sb.WriteByte('.')
			}
			sb.WriteString(QuoteName(e.Name))
		}
	}
	return sb.String()
}

// Plain renders the path without quoting, for column headers:
// info.rating, tags[0], my-attr.
func (p Path) Plain() string {
	var sb strings.Builder
	for i, e := range p {
		switch {
		case e.IsIndex:
			sb.WriteString("[" + strconv.Itoa(e.Index) + "]")
		default:
			if i > 0 {
				sb.WriteByte('.')
			}
			sb.WriteString(e.Name)
		}
	}
	return sb.String()
}

// Covers reports whether p is q or an ancestor of q.
func (p Path) Covers(q Path) bool {
	if len(p) > len(q) {
		return false
	}
	for i := range p {
		if p[i] != q[i] {
			return false
		}
	}
	return true
}

// QuoteName backticks a name unless it is a plain identifier.
func QuoteName(name string) string {
	if IsPlainIdentifier(name) {
		return name
	}
	return "`" + strings.ReplaceAll(name, "`", "``") + "`"
}

// IsPlainIdentifier reports whether name needs no quoting: letters, digits and
// underscores, not starting with a digit.
func IsPlainIdentifier(name string) bool {
	if name == "" {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		switch {
		case c == '_', c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		case c >= '0' && c <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

package planner

import (
	"strings"

	"github.com/ddbsql/ddbsql/planner/expr"
	"github.com/ddbsql/ddbsql/planner/value"
)

// call renders a scalar function call: the same function where both
// engines have it, an equivalent where they name or shape it differently,
// and DynamoDB's condition functions over the export's type-wrappers.
func (r *rewriter) call(x expr.Func) (string, error) {
	switch x.Name {
	case "begins_with":
		args, err := r.exprs(x.Args)
		if err != nil {
			return "", err
		}
		// Two-valued, like DynamoDB's: FALSE, never NULL.
		return "COALESCE(starts_with(" + args[0] + ", " + args[1] + "), FALSE)", nil
	case "contains", "size", "attribute_exists", "attribute_not_exists", "attribute_type":
		return r.documentFunc(x)
	case "if":
		args, err := r.exprs(x.Args)
		if err != nil {
			return "", err
		}
		return "CASE WHEN " + args[0] + " THEN " + args[1] + " ELSE " + args[2] + " END", nil
	case "ifnull":
		args, err := r.exprs(x.Args)
		if err != nil {
			return "", err
		}
		return "COALESCE(" + strings.Join(args, ", ") + ")", nil
	case "concat":
		return r.concat(x)
	case "lpad", "rpad":
		args, err := r.exprs(x.Args)
		if err != nil {
			return "", err
		}
		if len(args) == 2 {
			args = append(args, "' '")
		}
		args[1] = "CAST(" + args[1] + " AS BIGINT)"
		return x.Name + "(" + strings.Join(args, ", ") + ")", nil
	case "substring", "substr":
		args, err := r.exprs(x.Args)
		if err != nil {
			return "", err
		}
		for i := 1; i < len(args); i++ {
			args[i] = "CAST(" + args[i] + " AS BIGINT)"
		}
		return "substr(" + strings.Join(args, ", ") + ")", nil
	case "split_part", "regexp_extract":
		args, err := r.exprs(x.Args)
		if err != nil {
			return "", err
		}
		if len(args) == 3 {
			args[2] = "CAST(" + args[2] + " AS BIGINT)"
		}
		return x.Name + "(" + strings.Join(args, ", ") + ")", nil
	case "regexp_like":
		args, err := r.exprs(x.Args)
		if err != nil {
			return "", err
		}
		fn := "regexp_like"
		if !r.athena() {
			fn = "regexp_matches"
		}
		return fn + "(" + strings.Join(args, ", ") + ")", nil
	case "lower", "upper", "length", "char_length", "character_length", "replace", "trim", "ltrim", "rtrim",
		"abs", "round", "coalesce", "nullif", "greatest", "least":
		args, err := r.exprs(x.Args)
		if err != nil {
			return "", err
		}
		name := x.Name
		if name == "char_length" || name == "character_length" {
			name = "length"
		}
		return name + "(" + strings.Join(args, ", ") + ")", nil
	case "date_trunc", "date_part", "date_add", "date_diff", "from_unixtime", "date_format":
		return r.dateFunc(x)
	case "item_size":
		return "", r.d.refuse("item_size(): the export holds the items' JSON, not DynamoDB's size of each")
	}
	return "", r.d.refuse("the function %s()", x.Name)
}

// concat joins text. Trino's concat takes only strings and DuckDB's skips
// NULLs, so DuckDB's || (NULL in, NULL out) is used there.
func (r *rewriter) concat(x expr.Func) (string, error) {
	args := make([]string, len(x.Args))
	for i, a := range x.Args {
		s, err := r.expr(a)
		if err != nil {
			return "", err
		}
		if r.types.typeOf(a) != leafS {
			if c, ok := a.(expr.Column); ok && r.types.column(c) == leafN {
				// The digits as stored, not the decimal's rendering.
				s = r.column(c, leafText)
			} else if _, ok := a.(expr.Column); !ok {
				s = "CAST(" + s + " AS VARCHAR)"
			}
		}
		args[i] = s
	}
	if r.athena() {
		return "concat(" + strings.Join(args, ", ") + ")", nil
	}
	return "(" + strings.Join(args, " || ") + ")", nil
}

// documentFunc renders DynamoDB's functions of an attribute's type and
// contents. They read the type-wrappers themselves, so they need the
// DynamoDB JSON export.
func (r *rewriter) documentFunc(x expr.Func) (string, error) {
	c, ok := x.Args[0].(expr.Column)
	if !ok {
		return "", r.d.refuse("%s() of an expression: give it an attribute", x.Name)
	}
	if err := r.derivedPath(c); err != nil {
		return "", err
	}
	if !r.wrapped(c) {
		switch x.Name {
		case "attribute_exists":
			return "(" + r.column(c, r.types.column(c)) + " IS NOT NULL)", nil
		case "attribute_not_exists":
			return "(" + r.column(c, r.types.column(c)) + " IS NULL)", nil
		}
		return "", r.d.refuse("%s() over a %s source (it reads DynamoDB's types, which only the DynamoDB JSON export keeps)", x.Name, r.d.Source)
	}
	switch x.Name {
	case "attribute_exists", "attribute_not_exists":
		// The wrapper struct is present exactly when the attribute is;
		// declaring NULL gives the struct a member to declare.
		r.wrapper(c, "NULL")
		op := " IS NOT NULL)"
		if x.Name == "attribute_not_exists" {
			op = " IS NULL)"
		}
		return "(" + r.valueOf(c) + op, nil
	case "attribute_type":
		lit, ok := x.Args[1].(expr.Literal)
		if !ok || lit.Value.Kind() != value.String {
			return "", r.d.refuse("attribute_type() with a type that is not a string literal")
		}
		switch t := strings.ToUpper(lit.Value.Text()); t {
		case "S", "N", "B", "BOOL", "NULL", "SS", "NS":
			return "(" + r.wrapper(c, t) + " IS NOT NULL)", nil
		default:
			return "", r.d.refuse("attribute_type(%s, '%s')", c.Path.Plain(), t)
		}
	case "contains":
		return r.contains(c, x.Args[1])
	}
	// size: a string's length, a set's or list's number of members.
	return "COALESCE(" + r.length(r.wrapper(c, "S")) + ", " + r.cardinality(r.wrapper(c, "SS")) + ", " +
		r.cardinality(r.wrapper(c, "NS")) + ")", nil
}

func (r *dialectOut) length(s string) string { return "length(" + s + ")" }

func (r *dialectOut) cardinality(s string) string {
	if r.athena() {
		return "cardinality(" + s + ")"
	}
	return "len(" + s + ")"
}

// contains is DynamoDB's: a substring of an S, or a member of a set.
func (r *rewriter) contains(c expr.Column, operand expr.Expr) (string, error) {
	v, err := r.expr(operand)
	if err != nil {
		return "", err
	}
	switch r.types.typeOf(operand) {
	case leafN:
		members := r.wrapper(c, "NS")
		if r.athena() {
			return "COALESCE(contains(transform(" + members + ", m -> CAST(m AS " + r.decimal() + ")), " + v + "), FALSE)", nil
		}
		return "COALESCE(list_contains(list_transform(" + members + ", m -> CAST(m AS " + r.decimal() + ")), " + v + "), FALSE)", nil
	case leafS:
		s, ss := r.wrapper(c, "S"), r.wrapper(c, "SS")
		if r.athena() {
			return "COALESCE(strpos(" + s + ", " + v + ") > 0 OR contains(" + ss + ", " + v + "), FALSE)", nil
		}
		return "COALESCE(contains(" + s + ", " + v + ") OR list_contains(" + ss + ", " + v + "), FALSE)", nil
	}
	return "", r.d.refuse("contains(%s, …) with an operand of unknown type: write a string or number literal", c.Path.Plain())
}

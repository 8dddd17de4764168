package memdb

import (
	"regexp"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/planner/value"
)

// exprItem is the item the evaluation tests run against.
func exprItem(t *testing.T) attrs {
	t.Helper()
	it, msg := checkItem(rec{
		"s":     S("hello world"),
		"n":     N("42"),
		"big":   N("12345678901234567890123456789012345678"),
		"b":     B(0x00, 0x01, 0xff),
		"t":     &types.AttributeValueMemberBOOL{Value: true},
		"z":     &types.AttributeValueMemberNULL{Value: true},
		"ss":    &types.AttributeValueMemberSS{Value: []string{"red", "green"}},
		"ns":    &types.AttributeValueMemberNS{Value: []string{"1", "2.5"}},
		"bs":    &types.AttributeValueMemberBS{Value: [][]byte{{1}, {2}}},
		"l":     &types.AttributeValueMemberL{Value: []av{S("a"), N("7"), &types.AttributeValueMemberM{Value: rec{"k": S("v")}}}},
		"m":     &types.AttributeValueMemberM{Value: rec{"inr": &types.AttributeValueMemberM{Value: rec{"deep": N("3")}}, "lst": &types.AttributeValueMemberL{Value: []av{N("1")}}}},
		"x.y":   S("dotted"),
		"my-at": S("dash"),
	})
	if msg != "" {
		t.Fatal(msg)
	}
	return it
}

var placeholderRE = regexp.MustCompile(`:[0-9A-Za-z_]+`)

func TestConditionEvaluation(t *testing.T) {
	it := exprItem(t)
	names := map[string]string{"#d": "x.y", "#dash": "my-at", "#n": "n", "#size": "size"}
	vals := rec{
		":s": S("hello world"), ":hello": S("hello"), ":wor": S("wor"), ":n": N("42"), ":n42": N("42.0"), ":n1": N("1"),
		":n100": N("100"), ":big": N("12345678901234567890123456789012345677"), ":b": B(0x00), ":b01": B(0x00, 0x01),
		":red": S("red"), ":two5": N("2.5"), ":a": S("a"), ":seven": N("7"), ":S": S("S"), ":NULL": S("NULL"), ":M": S("M"),
		":null": &types.AttributeValueMemberNULL{Value: true}, ":true": &types.AttributeValueMemberBOOL{Value: true},
		":l": &types.AttributeValueMemberL{Value: []av{S("a"), N("7"), &types.AttributeValueMemberM{Value: rec{"k": S("v")}}}},
		":m": &types.AttributeValueMemberM{Value: rec{"k": S("v")}}, ":11": N("11"), ":3": N("3"), ":2": N("2"),
	}
	cases := []struct {
		expr string
		want bool
	}{
		{"s = :s", true},
		{"n = :n42", true}, // numbers compare by value
		{"n <> :n1", true},
		{"absent <> :n1", true}, // <> is true for an absent attribute
		{"absent = :n1", false},
		{"n < :n100", true},
		{"n > :n100", false},
		{"s < :n100", false}, // across types: false
		{"big > :big", true},
		{"b >= :b", true},
		{"b < :b01", false},
		{"t = :true", true},
		{"z = :null", true},
		{"n BETWEEN :n1 AND :n100", true},
		{"n BETWEEN :n100 AND :n100", false},
		{"s BETWEEN :n1 AND :n100", false},
		{"n IN (:n1, :n42, :s)", true},
		{"absent IN (:n1)", false},
		{"begins_with(s, :hello)", true},
		{"begins_with(b, :b01)", true},
		{"begins_with(n, :hello)", false},
		{"contains(s, :wor)", true},
		{"contains(ss, :red)", true},
		{"contains(ns, :two5)", true},
		{"contains(l, :seven)", true},
		{"contains(l, :m)", true},
		{"contains(b, :b)", true},
		{"contains(n, :n)", false},
		{"attribute_exists(m.inr.deep)", true},
		{"attribute_exists(m.inr.nope)", false},
		{"attribute_not_exists(l[5])", true},
		{"attribute_type(z, :NULL)", true},
		{"attribute_type(m, :M)", true},
		{"attribute_type(s, :NULL)", false},
		{"size(s) = :11", true},
		{"size(ss) = :2", true},
		{"size(l) = :3", true},
		{"size(m) = :2", true},
		{"size(n) = :n1", false}, // size of a number has no value
		{"size(b) = :3", true},
		{"m.inr.deep = :3", true},
		{"l[1] = :seven", true},
		{"l[2].k = :a", false},
		{"m.lst[0] = :n1", true},
		{"#d = :s", false},
		{"attribute_exists(#d) AND attribute_exists(#dash) AND attribute_not_exists(x.y)", true},
		{"l = :l", true},
		{"l[2] = :m", true},
		{"NOT n = :n", false},
		{"NOT NOT n = :n", true},
		{"n = :n1 OR n = :n AND s = :hello", false}, // AND binds tighter
		{"(n = :n1 OR n = :n) AND NOT (s = :hello)", true},
		{"n = :n1 or n = :n and not s = :hello", true},
	}
	for _, c := range cases {
		var used rec
		for _, k := range placeholderRE.FindAllString(c.expr, -1) {
			if used == nil {
				used = rec{}
			}
			used[k] = vals[k]
		}
		nm := map[string]string{}
		for k, v := range names {
			if strings.Contains(c.expr, k) {
				nm[k] = v
			}
		}
		if len(nm) == 0 {
			nm = nil
		}
		pe, err := parseExpressions(exprInput{names: nm, values: used, filter: &c.expr})
		if err != nil {
			t.Errorf("%s: %v", c.expr, err)
			continue
		}
		if got := pe.filter.eval(it); got != c.want {
			t.Errorf("%s = %v, want %v", c.expr, got, c.want)
		}
	}
}

func TestExpressionErrors(t *testing.T) {
	vals := rec{":v": S("x"), ":n": N("1"), ":t": S("BAD")}
	var in100 []string
	for i := 0; i < 101; i++ {
		in100 = append(in100, ":v")
	}
	cases := []struct {
		expr, want string
	}{
		{"", "The expression can not be empty;"},
		{"a = ", `Syntax error; token: "<EOF>", near: "="`},
		{"a = :v :v", `Syntax error; token: ":v", near: ":v :v"`},
		{"a == :v", `Syntax error; token: "=", near: "= = :v"`},
		{"a = :v AND", `Syntax error; token: "<EOF>", near: "AND"`},
		{"a[x] = :v", `Syntax error; token: "x", near: "[ x ]"`},
		{"a BETWEEN :v", `Syntax error; token: "<EOF>", near: ":v"`},
		{"a = :v;", `Syntax error; token: ";", near: ":v ;"`},
		{"status = :v", "Attribute name is a reserved keyword; reserved keyword: status"},
		{"a.Size = :v", "Attribute name is a reserved keyword; reserved keyword: Size"},
		{"#a = :v", "An expression attribute name used in the document path is not defined; attribute name: #a"},
		{"a = :w", "An expression attribute value used in expression is not defined; attribute value: :w"},
		{"foo(a)", "Invalid function name; function: foo"},
		{"attribute_exists(a, b)", "Incorrect number of operands for operator or function; operator or function: attribute_exists, number of operands: 2"},
		{"attribute_exists(:v)", "Operator or function requires a document path; operator or function: attribute_exists"},
		{"begins_with(a, :n)", "Incorrect operand type for operator or function; operator or function: begins_with, operand type: N"},
		{"attribute_type(a, :n)", "Incorrect operand type for operator or function; operator or function: attribute_type, operand type: N"},
		{"attribute_type(a, :t)", "Invalid attribute type name found; type: BAD, valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}"},
		{"size(a)", "The function is not allowed to be used this way in an expression; function: size"},
		{"begins_with(a, :v) = :v", "The function is not allowed to be used this way in an expression; function: begins_with"},
		{"a = a", "The first operand must be distinct from the remaining operands for this operator or function; operator: =, first operand: [a]"},
		{"contains(a.b, a.b)", "The first operand must be distinct from the remaining operands for this operator or function; operator: contains, first operand: [a, b]"},
		{"a BETWEEN :n AND :v", "The BETWEEN operator requires same data type for lower and upper bounds; lower bound operand: AttributeValue: {N:1}, upper bound operand: AttributeValue: {S:x}"},
		{"((a = :v))", "The expression has redundant parentheses;"},
		{"(a) = :v", "The expression has redundant parentheses;"},
		{"a IN (" + strings.Join(in100, ", ") + ")", "The IN operator is provided with too many operands; number of operands: 101"},
	}
	for _, c := range cases {
		env := &exprEnv{values: map[string]value.Value{}, unusedNames: map[string]struct{}{}, unusedValues: map[string]struct{}{}}
		for k, v := range vals {
			env.values[k], _ = value.FromAttributeValue(v)
		}
		_, err := parseCondition(env, c.expr)
		if err == nil || err.Error() != c.want {
			t.Errorf("%q: got %v, want %q", c.expr, err, c.want)
		}
	}
	// Parentheses that are not redundant are fine.
	for _, ok := range []string{"(a = :v)", "(a = :v) AND (b = :v)", "NOT (a = :v)", "((a = :v) OR b = :v)", "size(a) > :n", "(size(a) > :n)"} {
		env := &exprEnv{values: map[string]value.Value{":v": value.Str("x"), ":n": value.NumTrusted("1")}, unusedNames: map[string]struct{}{}, unusedValues: map[string]struct{}{}}
		if _, err := parseCondition(env, ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
}

func TestPlaceholderValidation(t *testing.T) {
	f := "a = :v"
	cases := []struct {
		in   exprInput
		want string
	}{
		{exprInput{names: map[string]string{}, filter: &f, values: rec{":v": S("x")}}, "ExpressionAttributeNames must not be empty"},
		{exprInput{names: map[string]string{"a": "b"}, filter: &f, values: rec{":v": S("x")}}, `ExpressionAttributeNames contains invalid key: Syntax error; key: "a"`},
		{exprInput{values: rec{}, filter: &f}, "ExpressionAttributeValues must not be empty"},
		{exprInput{values: rec{"v": S("x")}, filter: &f}, `ExpressionAttributeValues contains invalid key: Syntax error; key: "v"`},
		{exprInput{values: rec{":v": N("abc")}, filter: &f}, "ExpressionAttributeValues contains invalid value: The parameter cannot be converted to a numeric value: abc for key :v"},
		{exprInput{values: rec{":v": S("x"), ":w": S("y"), ":u": S("z")}, filter: &f}, "Value provided in ExpressionAttributeValues unused in expressions: keys: {:u, :w}"},
		{exprInput{names: map[string]string{"#a": "a"}, values: rec{":v": S("x")}, filter: &f}, "Value provided in ExpressionAttributeNames unused in expressions: keys: {#a}"},
	}
	for _, c := range cases {
		_, err := parseExpressions(c.in)
		if err == nil || apiMessage(err) != c.want {
			t.Errorf("got %v, want %q", err, c.want)
		}
	}
	p := "a, b.c, a"
	_, err := parseExpressions(exprInput{projection: &p})
	if apiMessage(err) != "Invalid ProjectionExpression: Two document paths overlap with each other; must remove or rewrite one of these paths; path one: [a], path two: [a]" {
		t.Errorf("overlap: %v", err)
	}
	p = "a[0], a.b"
	_, err = parseExpressions(exprInput{projection: &p})
	if apiMessage(err) != "Invalid ProjectionExpression: Two document paths conflict with each other; must remove or rewrite one of these paths; path one: [a, [0]], path two: [a, b]" {
		t.Errorf("conflict: %v", err)
	}
}

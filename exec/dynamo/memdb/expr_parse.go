package memdb

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/ddbsql/ddbsql/planner/ddblimits"
	"github.com/ddbsql/ddbsql/planner/value"
)

// exprEnv holds a request's ExpressionAttributeNames and Values and tracks
// which of them its expressions use.
type exprEnv struct {
	names        map[string]string
	values       map[string]value.Value
	unusedNames  map[string]struct{}
	unusedValues map[string]struct{}
}

// Semantic error categories, reported in DynamoDB's order of precedence
// after a successful parse (a syntax error wins over all of them).
const (
	errParens = iota
	errUnknownFunction
	errMisusedFunction
	errReserved
	errAttrNameVal
	errOperand
	errDistinct
	errFunction
	errPathOverlap
	errPathConflict
	numErrKinds
)

// parser is a recursive-descent parser over a token slice.
type parser struct {
	env  *exprEnv
	toks []token
	p    int
	errs [numErrKinds]string
}

func newParser(env *exprEnv, src string) *parser {
	return &parser{env: env, toks: tokenize(src)}
}

func (ps *parser) tok() token       { return ps.toks[ps.p] }
func (ps *parser) peek(n int) token { return ps.toks[min(ps.p+n, len(ps.toks)-1)] }
func (ps *parser) fail() error      { return syntaxError(ps.toks, ps.p) }

func (ps *parser) note(kind int, format string, args ...any) {
	if ps.errs[kind] == "" {
		ps.errs[kind] = fmt.Sprintf(format, args...)
	}
}

// firstError returns the highest-precedence semantic error.
func (ps *parser) firstError() error {
	for _, e := range ps.errs {
		if e != "" {
			return errors.New(e)
		}
	}
	return nil
}

func (ps *parser) expect(sym string) error {
	if !ps.tok().is(sym) || ps.tok().kind != tSymbol {
		return ps.fail()
	}
	ps.p++
	return nil
}

// parseCondition parses a whole condition expression (filter, condition or
// key condition).
func parseCondition(env *exprEnv, src string) (*cond, error) {
	if src == "" {
		return nil, errors.New("The expression can not be empty;")
	}
	ps := newParser(env, src)
	c, err := ps.parseOr()
	if err != nil {
		return nil, err
	}
	if ps.tok().kind != tEOF {
		return nil, ps.fail()
	}
	ps.checkMisusedSize(c)
	if err := ps.firstError(); err != nil {
		return nil, err
	}
	return c, nil
}

func isKeyword(t token) bool {
	if t.kind != tIdent {
		return false
	}
	switch strings.ToUpper(t.text) {
	case "AND", "OR", "NOT", "BETWEEN", "IN":
		return true
	}
	return false
}

func (ps *parser) parseOr() (*cond, error) {
	left, err := ps.parseAnd()
	if err != nil {
		return nil, err
	}
	for ps.tok().is("OR") {
		ps.p++
		right, err := ps.parseAnd()
		if err != nil {
			return nil, err
		}
		ps.checkMisusedSize(left)
		ps.checkMisusedSize(right)
		left = &cond{kind: cOr, sub: []*cond{left, right}}
	}
	return left, nil
}

func (ps *parser) parseAnd() (*cond, error) {
	left, err := ps.parseNot()
	if err != nil {
		return nil, err
	}
	for ps.tok().is("AND") {
		ps.p++
		right, err := ps.parseNot()
		if err != nil {
			return nil, err
		}
		ps.checkMisusedSize(left)
		ps.checkMisusedSize(right)
		left = &cond{kind: cAnd, sub: []*cond{left, right}}
	}
	return left, nil
}

func (ps *parser) parseNot() (*cond, error) {
	if ps.tok().is("NOT") {
		ps.p++
		sub, err := ps.parseNot()
		if err != nil {
			return nil, err
		}
		ps.checkMisusedSize(sub)
		return &cond{kind: cNot, sub: []*cond{sub}}, nil
	}
	return ps.parsePrimary()
}

// parsePrimary is a parenthesised condition or a comparison/function. A
// '(' may also open a parenthesised operand, so it backtracks.
func (ps *parser) parsePrimary() (*cond, error) {
	if ps.tok().is("(") && ps.tok().kind == tSymbol {
		save, saveErrs := ps.p, ps.errs
		ps.p++
		if c, err := ps.parseOr(); err == nil && ps.tok().is(")") && ps.tok().kind == tSymbol {
			ps.p++
			if c.paren {
				ps.note(errParens, "The expression has redundant parentheses;")
			}
			c.paren = true
			return c, nil
		}
		ps.p, ps.errs = save, saveErrs
	}
	return ps.parseComparison()
}

func isComparator(t token) bool {
	if t.kind != tSymbol {
		return false
	}
	switch t.text {
	case "=", "<>", "<", "<=", ">", ">=":
		return true
	}
	return false
}

func (ps *parser) parseComparison() (*cond, error) {
	start := ps.p
	x, err := ps.parseOperand()
	if err != nil {
		return nil, err
	}
	t := ps.tok()
	switch {
	case isComparator(t):
		ps.p++
		y, err := ps.parseOperand()
		if err != nil {
			return nil, err
		}
		ps.checkMisusedFunction(x, y)
		ps.checkDistinct(t.text, []*operand{x, y})
		return &cond{kind: cCompare, op: t.text, args: []*operand{x, y}}, nil
	case t.is("BETWEEN"):
		ps.p++
		lo, err := ps.parseOperand()
		if err != nil {
			return nil, err
		}
		if !ps.tok().is("AND") {
			return nil, ps.fail()
		}
		ps.p++
		hi, err := ps.parseOperand()
		if err != nil {
			return nil, err
		}
		ps.checkMisusedFunction(x, lo, hi)
		ps.checkBetween(lo, hi)
		return &cond{kind: cBetween, op: "BETWEEN", args: []*operand{x, lo, hi}}, nil
	case t.is("IN"):
		ps.p++
		if err := ps.expect("("); err != nil {
			return nil, err
		}
		args, err := ps.parseArgs()
		if err != nil {
			return nil, err
		}
		if err := ps.expect(")"); err != nil {
			return nil, err
		}
		all := append([]*operand{x}, args...)
		ps.checkMisusedFunction(all...)
		if len(args) > ddblimits.InOperands {
			ps.note(errOperand, "The IN operator is provided with too many operands; number of operands: %d", len(args))
		}
		return &cond{kind: cIn, op: "IN", args: all}, nil
	}
	if x.kind == opFunc && ps.toks[start].kind == tIdent {
		return &cond{kind: cFunc, op: x.fn, args: x.args}, nil
	}
	return nil, ps.fail()
}

// parseArgs parses operand (',' operand)*.
func (ps *parser) parseArgs() ([]*operand, error) {
	var args []*operand
	for {
		o, err := ps.parseOperand()
		if err != nil {
			return nil, err
		}
		args = append(args, o)
		if !(ps.tok().kind == tSymbol && ps.tok().text == ",") {
			return args, nil
		}
		ps.p++
	}
}

func (ps *parser) parseOperand() (*operand, error) {
	t := ps.tok()
	switch {
	case t.kind == tSymbol && t.text == "(":
		ps.p++
		o, err := ps.parseOperand()
		if err != nil {
			return nil, err
		}
		if err := ps.expect(")"); err != nil {
			return nil, err
		}
		ps.note(errParens, "The expression has redundant parentheses;")
		return o, nil
	case t.kind == tValue:
		ps.p++
		return &operand{kind: opValue, val: ps.resolveValue(t.text)}, nil
	case t.kind == tIdent && !isKeyword(t) && ps.peek(1).kind == tSymbol && ps.peek(1).text == "(":
		return ps.parseFunction()
	case (t.kind == tIdent && !isKeyword(t)) || t.kind == tName:
		p, err := ps.parsePath()
		if err != nil {
			return nil, err
		}
		return &operand{kind: opPath, path: p}, nil
	}
	return nil, ps.fail()
}

func (ps *parser) parseFunction() (*operand, error) {
	name := ps.tok().text
	ps.p += 2
	var args []*operand
	if !(ps.tok().kind == tSymbol && ps.tok().text == ")") {
		var err error
		if args, err = ps.parseArgs(); err != nil {
			return nil, err
		}
	}
	if err := ps.expect(")"); err != nil {
		return nil, err
	}
	ps.checkMisusedFunction(args...)
	ps.checkFunction(name, args)
	return &operand{kind: opFunc, fn: name, args: args}, nil
}

// parsePath parses a document path: name ( '.' name | '[' n ']' )*.
func (ps *parser) parsePath() (value.Path, error) {
	var p value.Path
	name, err := ps.pathName()
	if err != nil {
		return nil, err
	}
	p = append(p, value.PathElem{Name: name})
	for {
		t := ps.tok()
		if t.kind != tSymbol {
			return p, nil
		}
		switch t.text {
		case ".":
			ps.p++
			name, err := ps.pathName()
			if err != nil {
				return nil, err
			}
			p = append(p, value.PathElem{Name: name})
		case "[":
			ps.p++
			if ps.tok().kind != tNumber {
				return nil, ps.fail()
			}
			n, err := strconv.Atoi(ps.tok().text)
			if err != nil {
				return nil, ps.fail()
			}
			ps.p++
			if err := ps.expect("]"); err != nil {
				return nil, err
			}
			p = append(p, value.PathElem{Index: n, IsIndex: true})
		default:
			return p, nil
		}
	}
}

func (ps *parser) pathName() (string, error) {
	t := ps.tok()
	switch t.kind {
	case tIdent:
		ps.p++
		if _, ok := reservedWords[strings.ToUpper(t.text)]; ok {
			ps.note(errReserved, "Attribute name is a reserved keyword; reserved keyword: %s", t.text)
		}
		return t.text, nil
	case tName:
		ps.p++
		return ps.resolveName(t.text), nil
	}
	return "", ps.fail()
}

func (ps *parser) resolveName(ph string) string {
	name, ok := ps.env.names[ph]
	if !ok {
		if ps.errs[errAttrNameVal] == "" {
			ps.note(errAttrNameVal, "An expression attribute name used in the document path is not defined; attribute name: %s", ph)
		}
		return ph
	}
	delete(ps.env.unusedNames, ph)
	return name
}

func (ps *parser) resolveValue(ph string) value.Value {
	v, ok := ps.env.values[ph]
	if !ok {
		ps.note(errAttrNameVal, "An expression attribute value used in expression is not defined; attribute value: %s", ph)
		return value.MissingValue()
	}
	delete(ps.env.unusedValues, ph)
	return v
}

// Semantic checks, after dynalite's reproduction of DynamoDB's.

var functionArity = map[string]int{
	"attribute_exists": 1, "attribute_not_exists": 1, "attribute_type": 2,
	"begins_with": 2, "contains": 2, "size": 1,
}

// operandType is the static type of an operand when known: a value's type,
// N for size(), BOOL for other functions; "" for paths.
func operandType(o *operand) string {
	switch o.kind {
	case opValue:
		if o.val.Kind() == value.Missing {
			return ""
		}
		return typeName(o.val)
	case opFunc:
		if o.fn == "size" {
			return "N"
		}
		return "BOOL"
	}
	return ""
}

func (ps *parser) checkFunction(name string, args []*operand) {
	n, ok := functionArity[name]
	if !ok {
		ps.note(errUnknownFunction, "Invalid function name; function: %s", name)
		return
	}
	if n != len(args) {
		ps.note(errOperand, "Incorrect number of operands for operator or function; operator or function: %s, number of operands: %d", name, len(args))
		return
	}
	ps.checkDistinct(name, args)
	switch name {
	case "attribute_exists", "attribute_not_exists":
		if args[0].kind != opPath {
			ps.note(errFunction, "Operator or function requires a document path; operator or function: %s", name)
		}
	case "begins_with":
		for _, a := range args {
			if t := operandType(a); t != "" && t != "S" && t != "B" {
				ps.note(errFunction, "Incorrect operand type for operator or function; operator or function: %s, operand type: %s", name, t)
				return
			}
		}
	case "attribute_type":
		t := operandType(args[1])
		if t != "S" {
			if t == "" {
				t = "{NS,SS,L,BS,N,M,B,BOOL,NULL,S}"
			}
			ps.note(errFunction, "Incorrect operand type for operator or function; operator or function: %s, operand type: %s", name, t)
			return
		}
		switch args[1].val.Text() {
		case "S", "N", "B", "NULL", "SS", "BOOL", "L", "BS", "NS", "M":
		default:
			ps.note(errFunction, "Invalid attribute type name found; type: %s, valid types: {B,NULL,SS,BOOL,L,BS,N,NS,S,M}", args[1].val.Text())
		}
	case "size":
		switch t := operandType(args[0]); t {
		case "N", "BOOL", "NULL":
			ps.note(errFunction, "Incorrect operand type for operator or function; operator or function: %s, operand type: %s", name, t)
		}
	}
}

// checkMisusedFunction rejects functions other than size used as operands.
func (ps *parser) checkMisusedFunction(args ...*operand) {
	for _, a := range args {
		if a.kind == opFunc && a.fn != "size" {
			ps.note(errMisusedFunction, "The function is not allowed to be used this way in an expression; function: %s", a.fn)
			return
		}
	}
}

// checkMisusedSize rejects size() used as a whole condition.
func (ps *parser) checkMisusedSize(c *cond) {
	if c.kind == cFunc && c.op == "size" {
		ps.note(errMisusedFunction, "The function is not allowed to be used this way in an expression; function: size")
	}
}

func (ps *parser) checkDistinct(op string, args []*operand) {
	if len(args) == 2 && args[0].kind == opPath && args[1].kind == opPath && samePath(args[0].path, args[1].path) {
		ps.note(errDistinct, "The first operand must be distinct from the remaining operands for this operator or function; operator: %s, first operand: %s", op, pathString(args[0].path))
	}
}

func (ps *parser) checkBetween(lo, hi *operand) {
	if lo.kind != opValue || hi.kind != opValue || lo.val.Kind() == value.Missing || hi.val.Kind() == value.Missing {
		return
	}
	t1, t2 := typeName(lo.val), typeName(hi.val)
	switch {
	case t1 != t2:
		ps.note(errFunction, "The BETWEEN operator requires same data type for lower and upper bounds; lower bound operand: AttributeValue: {%s:%s}, upper bound operand: AttributeValue: {%s:%s}", t1, valueText(lo.val), t2, valueText(hi.val))
	case value.Ordered(lo.val, hi.val) && value.CompareScalars(lo.val, hi.val) > 0:
		ps.note(errFunction, "The BETWEEN operator requires upper bound to be greater than or equal to lower bound; lower bound operand: AttributeValue: {%s:%s}, upper bound operand: AttributeValue: {%s:%s}", t1, valueText(lo.val), t2, valueText(hi.val))
	}
}

// valueText renders a scalar the way DynamoDB's messages do (B as base64).
func valueText(v value.Value) string {
	if v.Kind() == value.Binary {
		return base64.StdEncoding.EncodeToString(v.Bytes())
	}
	return v.Text()
}

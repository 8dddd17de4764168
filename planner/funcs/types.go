package funcs

// Type is what an argument or result of a function is, in DynamoDB's types.
type Type uint8

const (
	// Any is a value of any type, NULL included.
	Any Type = iota
	// String is an S.
	String
	// Number is an N.
	Number
	// Bool is a BOOL.
	Bool
	// Text is an S or an N; a number stands for its digits.
	Text
	// TypeName is an S naming a DynamoDB type: S N B BOOL NULL M L SS NS BS.
	TypeName
	// TimeUnit is an S naming a unit of time (see ParseTimeUnit): 'day',
	// 'months', 'Year'…
	TimeUnit
)

var typeNames = [...]string{Any: "any", String: "S", Number: "N", Bool: "BOOL", Text: "S or N", TypeName: "type name", TimeUnit: "time unit"}

func (t Type) String() string {
	if int(t) < len(typeNames) {
		return typeNames[t]
	}
	return "Type(" + itoa(int(t)) + ")"
}

// Pushdown says whether and how DynamoDB can evaluate a function.
type Pushdown uint8

const (
	// ClientOnly functions are evaluated by ddbsql on the client.
	ClientOnly Pushdown = iota
	// Condition functions are DynamoDB condition-expression functions
	// (begins_with, contains, attribute_exists, …): a call is a whole
	// predicate in a FilterExpression or ConditionExpression.
	Condition
	// Operand functions (size) are DynamoDB operands: a call is a value
	// compared inside a condition, never a predicate of its own.
	Operand
)

var pushdownNames = [...]string{ClientOnly: "client", Condition: "condition", Operand: "operand"}

func (p Pushdown) String() string {
	if int(p) < len(pushdownNames) {
		return pushdownNames[p]
	}
	return "Pushdown(" + itoa(int(p)) + ")"
}

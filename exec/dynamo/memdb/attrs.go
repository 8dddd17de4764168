package memdb

import (
	"encoding/base64"
	"regexp"
	"sort"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/cockroachdb/apd/v3"

	"github.com/ddbsql/ddbsql/planner/ddblimits"
	"github.com/ddbsql/ddbsql/planner/value"
)

// Conversion between the SDK's attribute values and value.Value, with
// DynamoDB's validation of what a request may carry.

var numberSyntax = regexp.MustCompile(`^-?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$`)

// checkAttributeValue validates one attribute value the way DynamoDB does
// before looking at the table; it returns "" when the value is acceptable.
func checkAttributeValue(av types.AttributeValue) string {
	switch t := av.(type) {
	case *types.AttributeValueMemberN:
		return checkNumber(t.Value)
	case *types.AttributeValueMemberNULL:
		if !t.Value {
			return "One or more parameter values were invalid: Null attribute value types must have the value of true"
		}
	case *types.AttributeValueMemberSS:
		if len(t.Value) == 0 {
			return "One or more parameter values were invalid: An string set  may not be empty"
		}
		if hasDuplicate(t.Value) {
			return "One or more parameter values were invalid: Input collection [" + strings.Join(t.Value, ", ") + "] contains duplicates."
		}
	case *types.AttributeValueMemberNS:
		if len(t.Value) == 0 {
			return "One or more parameter values were invalid: An number set  may not be empty"
		}
		canon := make([]string, len(t.Value))
		for i, n := range t.Value {
			if msg := checkNumber(n); msg != "" {
				return msg
			}
			canon[i], _ = value.CanonicalNumber(n)
		}
		if hasDuplicate(canon) {
			return "Input collection contains duplicates"
		}
	case *types.AttributeValueMemberBS:
		if len(t.Value) == 0 {
			return "One or more parameter values were invalid: Binary sets should not be empty"
		}
		enc := make([]string, len(t.Value))
		for i, b := range t.Value {
			enc[i] = base64.StdEncoding.EncodeToString(b)
		}
		if hasDuplicate(enc) {
			return "One or more parameter values were invalid: Input collection [" + strings.Join(enc, ", ") + "]of type BS contains duplicates."
		}
	case *types.AttributeValueMemberM:
		for _, k := range sortedNames(t.Value) {
			if msg := checkAttributeValue(t.Value[k]); msg != "" {
				return msg
			}
		}
	case *types.AttributeValueMemberL:
		for _, e := range t.Value {
			if msg := checkAttributeValue(e); msg != "" {
				return msg
			}
		}
	case *types.AttributeValueMemberS, *types.AttributeValueMemberB, *types.AttributeValueMemberBOOL:
	default:
		return "Supplied AttributeValue is empty, must contain exactly one of the supported datatypes"
	}
	return ""
}

// checkNumber applies DynamoDB's number rules: parseable, magnitude within
// 1E-130..9.99E+125, at most 38 significant digits.
func checkNumber(text string) string {
	if text == "" {
		return "The parameter cannot be converted to a numeric value"
	}
	if _, ok := plainInteger(text); ok {
		return ""
	}
	if plainDecimal(text) {
		return ""
	}
	if !numberSyntax.MatchString(text) {
		return "The parameter cannot be converted to a numeric value: " + text
	}
	d, _, err := apd.NewFromString(text)
	if err != nil {
		return "The parameter cannot be converted to a numeric value: " + text
	}
	var r apd.Decimal
	r.Reduce(d)
	if r.IsZero() {
		return ""
	}
	digits := r.NumDigits()
	adjusted := int64(r.Exponent) + digits - 1
	switch {
	case adjusted > ddblimits.NumberMaxExponent:
		return "Number overflow. Attempting to store a number with magnitude larger than supported range"
	case adjusted < ddblimits.NumberMinExponent:
		return "Number underflow. Attempting to store a number with magnitude smaller than supported range"
	case digits > ddblimits.NumberDigits:
		return "Attempting to store more than 38 significant digits in a Number"
	}
	return ""
}

func hasDuplicate(xs []string) bool {
	seen := make(map[string]struct{}, len(xs))
	for _, x := range xs {
		if _, ok := seen[x]; ok {
			return true
		}
		seen[x] = struct{}{}
	}
	return false
}

func sortedNames[V any](m map[string]V) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	return names
}

// checkItem validates every attribute of an item (or key) and converts it.
func checkItem(item map[string]types.AttributeValue) (attrs, string) {
	for _, k := range sortedNames(item) {
		if msg := checkAttributeValue(item[k]); msg != "" {
			return nil, msg
		}
	}
	return convertItem(item)
}

// convertItem converts validated attribute values.
func convertItem(item map[string]types.AttributeValue) (attrs, string) {
	out := make(attrs, 0, len(item))
	for k, av := range item {
		v, err := fromAV(av)
		if err != nil {
			return nil, err.Error()
		}
		out = append(out, attr{k, v})
	}
	return sortAttrs(out), ""
}

// fromAV is value.FromAttributeValue with fast paths for the common scalar
// cases (strings, and integers that are already canonical).
func fromAV(av types.AttributeValue) (value.Value, error) {
	switch t := av.(type) {
	case *types.AttributeValueMemberS:
		return value.Str(t.Value), nil
	case *types.AttributeValueMemberN:
		if canon, ok := plainInteger(t.Value); ok && canon {
			return value.NumTrusted(t.Value), nil
		}
	}
	return value.FromAttributeValue(av)
}

// plainInteger reports whether text is an integer of at most 38 digits
// (ok) and whether it is already in canonical form (no leading zeros, no
// sign on zero).
// plainDecimal reports whether text is digits with one inner point and an
// optional sign, at most NumberDigits digits in all: always in range, so
// it needs no decimal arithmetic to check.
func plainDecimal(text string) bool {
	if len(text) > 0 && text[0] == '-' {
		text = text[1:]
	}
	dot, digits := -1, 0
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && dot < 0:
			dot = i
		default:
			return false
		}
	}
	return dot > 0 && dot < len(text)-1 && digits <= ddblimits.NumberDigits
}

func plainInteger(text string) (canonical, ok bool) {
	digits := text
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if digits == "" || len(digits) > ddblimits.NumberDigits {
		return false, false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return false, false
		}
	}
	canonical = digits == "0" && text == "0" || digits[0] != '0'
	return canonical, true
}

// toSDK converts a stored item for a response; the result shares nothing
// with the store.
func toSDK(a attrs) map[string]types.AttributeValue {
	out := make(map[string]types.AttributeValue, len(a))
	for _, at := range a {
		out[at.name] = at.val.AttributeValue()
	}
	return out
}

// typeName is DynamoDB's type descriptor of a value (S, N, B, BOOL, NULL, M,
// L, SS, NS, BS).
func typeName(v value.Value) string { return v.Kind().String() }

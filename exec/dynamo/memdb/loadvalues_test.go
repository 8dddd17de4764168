package memdb

import (
	"reflect"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/planner/value"
)

// asValue builds the value a decoder would: set members in request order,
// numbers canonical (as written when they cannot be parsed, so that memdb
// rejects them).
func asValue(av types.AttributeValue) value.Value {
	switch t := av.(type) {
	case *types.AttributeValueMemberS:
		return value.Str(t.Value)
	case *types.AttributeValueMemberN:
		return number(t.Value)
	case *types.AttributeValueMemberB:
		return value.Bin(t.Value)
	case *types.AttributeValueMemberBOOL:
		return value.BoolOf(t.Value)
	case *types.AttributeValueMemberNULL:
		return value.NullValue()
	case *types.AttributeValueMemberM:
		m := map[string]value.Value{}
		for k, e := range t.Value {
			m[k] = asValue(e)
		}
		return value.MapOf(m)
	case *types.AttributeValueMemberL:
		var l []value.Value
		for _, e := range t.Value {
			l = append(l, asValue(e))
		}
		return value.ListOf(l)
	case *types.AttributeValueMemberSS:
		var l []value.Value
		for _, e := range t.Value {
			l = append(l, value.Str(e))
		}
		return value.SetOf(value.StringSet, l)
	case *types.AttributeValueMemberNS:
		var l []value.Value
		for _, e := range t.Value {
			l = append(l, number(e))
		}
		return value.SetOf(value.NumberSet, l)
	}
	return value.MissingValue()
}

func named(item rec) []NamedValue {
	var out []NamedValue
	for k, v := range item {
		out = append(out, NamedValue{k, asValue(v)})
	}
	return out
}

func number(text string) value.Value {
	if v, err := value.Num(text); err == nil {
		return v
	}
	return value.NumTrusted(text)
}

// PutValues accepts, stores and rejects exactly what PutItem does, with
// the same messages.
func TestLoaderPutValuesAgreesWithPutItem(t *testing.T) {
	ss := func(v ...string) av { return &types.AttributeValueMemberSS{Value: v} }
	ns := func(v ...string) av { return &types.AttributeValueMemberNS{Value: v} }
	m := func(kv ...any) av {
		out := map[string]types.AttributeValue{}
		for i := 0; i < len(kv); i += 2 {
			out[kv[i].(string)] = kv[i+1].(av)
		}
		return &types.AttributeValueMemberM{Value: out}
	}
	l := func(e ...av) av { return &types.AttributeValueMemberL{Value: e} }
	for _, item := range []rec{
		{"pk": S("a"), "n": N("12.50"), "tags": ss("b", "a"), "doc": m("x", l(N("007"), ns("3", "1")), "y", S("z"))},
		{"pk": S("a"), "doc": m("deep", m("ns", ns("1", "2", "1")))},
		{"pk": S("a"), "s": ss("b", "a", "b")},
		{"pk": S("a"), "n": N("1e500")},
		{"pk": S("a"), "l": l(N("12345678901234567890123456789012345678901"))},
		{"pk": S("a"), "e": ss()},
		{"pk": S("")},
		{"pk": N("1")},
		{"other": S("a")},
		{"pk": S("a"), "nul": &types.AttributeValueMemberNULL{Value: true}, "b": B(1, 2), "t": &types.AttributeValueMemberBOOL{Value: true}},
	} {
		viaPut := newDB(t, tableDef("tbl", "pk:S"))
		_, putErr := viaPut.PutItem(ctx, &dynamodb.PutItemInput{TableName: aws.String("tbl"), Item: item})
		viaValues := newDB(t, tableDef("tbl", "pk:S"))
		n, err := viaValues.Loader().PutValues(ctx, "tbl", [][]NamedValue{named(item)})
		if (putErr == nil) != (err == nil) || putErr != nil && (err.Error() != putErr.Error() || n != 0) {
			t.Errorf("%v: PutValues %d, %v; PutItem %v", item, n, err, putErr)
			continue
		}
		a := scan(t, viaPut, &dynamodb.ScanInput{TableName: aws.String("tbl")}).Items
		b := scan(t, viaValues, &dynamodb.ScanInput{TableName: aws.String("tbl")}).Items
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%v: PutValues stored %v, PutItem %v", item, b, a)
		}
	}
}

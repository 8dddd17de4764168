package difftest

import (
	"context"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo/dynalitetest"
	"github.com/ddbsql/ddbsql/exec/dynamo/fixtures"
	"github.com/ddbsql/ddbsql/planner/value"
)

// small is a hand-written table for the direct tests: partition "P", items
// numbered id 1, 2, … in the order given.
type small struct {
	t     *testing.T
	table string
	r     *ddbRunner
}

func newSmall(t *testing.T, items ...map[string]value.Value) *small {
	t.Helper()
	vals := make([]value.Value, len(items))
	for i, attrs := range items {
		m := map[string]value.Value{"pk": value.Str("P"), "id": value.NumTrusted(strconv.Itoa(i + 1))}
		for k, v := range attrs {
			m[k] = v
		}
		vals[i] = value.MapOf(m)
	}
	tbl := &fixtures.Table{Name: "small", Create: &dynamodb.CreateTableInput{
		TableName:   aws.String("small"),
		BillingMode: types.BillingModePayPerRequest,
		KeySchema: []types.KeySchemaElement{
			{AttributeName: aws.String("pk"), KeyType: types.KeyTypeHash},
			{AttributeName: aws.String("id"), KeyType: types.KeyTypeRange},
		},
		AttributeDefinitions: []types.AttributeDefinition{
			{AttributeName: aws.String("pk"), AttributeType: types.ScalarAttributeTypeS},
			{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeN},
		},
	}, Items: vals}
	prefix := dynalitetest.Prefix(t)
	if err := fixtures.Load(context.Background(), dynalitetest.Client(t), prefix, tbl); err != nil {
		t.Fatal(err)
	}
	return &small{t: t, table: tbl.Named(prefix), r: newDDB(t)}
}

// sql replaces {t} by the table and runs the statement (Scans allowed).
func (s *small) sql(text string) string {
	return strings.ReplaceAll(text, "{t}", "`"+s.table+"`")
}

// rows runs a statement and renders each cell with cell().
func (s *small) rows(text string) [][]string {
	s.t.Helper()
	raw, err := s.r.run(context.Background(), s.sql(text), true)
	if err != nil {
		s.t.Fatalf("%s: %v", text, err)
	}
	out := make([][]string, len(raw))
	for i, r := range raw {
		out[i] = make([]string, len(r))
		for k, v := range r {
			out[i][k] = cellText(v)
		}
	}
	return out
}

// try runs a statement and returns its rows or error.
func (s *small) try(text string) ([][]string, error) {
	raw, err := s.r.run(context.Background(), s.sql(text), true)
	if err != nil {
		return nil, err
	}
	out := make([][]string, len(raw))
	for i, r := range raw {
		out[i] = make([]string, len(r))
		for k, v := range r {
			out[i][k] = cellText(v)
		}
	}
	return out, nil
}

// col runs a one-column statement.
func (s *small) col(text string) []string {
	s.t.Helper()
	var out []string
	for _, r := range s.rows(text) {
		out = append(out, r[0])
	}
	return out
}

// cellText renders a decoded JSON cell: numbers as their digits, strings
// quoted, null as NULL.
func cellText(v any) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case string:
		return strconv.Quote(x)
	}
	return fmt.Sprint(v)
}

func (s *small) want(text string, want ...string) {
	s.t.Helper()
	if got := s.col(text); !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
		s.t.Errorf("%s\n got  %v\n want %v", text, got, want)
	}
}

func num(s string) value.Value { return value.NumTrusted(s) }
func str(s string) value.Value { return value.Str(s) }

type attrs = map[string]value.Value

// rowsEqual checks every cell of the result.
func (s *small) rowsEqual(text string, want ...[]string) {
	s.t.Helper()
	got := s.rows(text)
	if !reflect.DeepEqual(got, want) && !(len(got) == 0 && len(want) == 0) {
		s.t.Errorf("%s\n got  %v\n want %v", text, got, want)
	}
}

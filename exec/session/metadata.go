package session

import (
	"context"
	"errors"
	"fmt"
	"io"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/columnar"
	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/engine"
	"github.com/ddbsql/ddbsql/parser/diag"
	"github.com/ddbsql/ddbsql/planner"
	"github.com/ddbsql/ddbsql/planner/value"
)

func (s *Session) showTables(ctx context.Context) error {
	names, err := s.catalog.Tables(ctx)
	if err != nil {
		return engine.DynamoError("ListTables", err)
	}
	cols := []string{"table_name"}
	b := columnar.NewRowBuilder(s.cfg.Mem, cols)
	for _, n := range names {
		b.Append([]value.Value{value.Str(n)})
	}
	return s.writeRows(cols, b.Build())
}

// table describes a table for DESCRIBE and SHOW INDEXES.
func (s *Session) table(ctx context.Context, name string) (*planner.TableDef, error) {
	t, err := s.catalog.Table(ctx, name)
	if err == nil {
		return t, nil
	}
	if errors.Is(err, planner.ErrNotFound) {
		return nil, &diag.Error{Phase: diag.Plan, Code: diag.CodeUnknownTable, Msg: fmt.Sprintf("table %q does not exist", name), Hint: "SHOW TABLES lists the tables"}
	}
	return nil, engine.DynamoError("DescribeTable", err)
}

var describeColumns = []string{"name", "type", "partition_key", "sort_key", "projection", "item_count", "size_bytes"}

var settingColumns = []string{"setting", "value"}

// describe prints one row for the table and one per index, then the
// table's settings (describe.go); with json and ndjson, one document.
// It asks DescribeTable afresh rather than the catalog's cache: the
// status and settings it shows are the table's current ones.
func (s *Session) describe(ctx context.Context, name string) error {
	if err := s.textOnly("DESCRIBE"); err != nil {
		return err
	}
	out, err := s.client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)}, dynamo.MetadataRetries)
	if err != nil {
		var nf *types.ResourceNotFoundException
		if errors.As(err, &nf) {
			return &diag.Error{Phase: diag.Plan, Code: diag.CodeUnknownTable, Msg: fmt.Sprintf("table %q does not exist", name), Hint: "SHOW TABLES lists the tables"}
		}
		return engine.DynamoError("DescribeTable", err)
	}
	t, err := dynamo.TableDefOf(out.Table)
	if err != nil {
		return engine.DynamoError("DescribeTable", err)
	}
	settings, err := dynamo.DescribeSettings(ctx, s.client, out.Table)
	if err != nil {
		return engine.DynamoError("DESCRIBE "+name, err)
	}
	if s.jsonDocuments() {
		return s.writeDescribeJSON(t, out.Table, settings)
	}
	b := columnar.NewRowBuilder(s.cfg.Mem, describeColumns)
	b.Append(structureRow(t.Name, "TABLE", t.PK, t.SK, "ALL", t.ItemCount, t.SizeBytes))
	for _, ix := range t.Indexes {
		b.Append(indexRow(ix))
	}
	if err := s.writeRows(describeColumns, b.Build()); err != nil {
		return err
	}
	if _, err := io.WriteString(s.out, "\n"); err != nil {
		return err
	}
	sb := columnar.NewRowBuilder(s.cfg.Mem, settingColumns)
	for _, line := range settingLines(settings) {
		sb.Append([]value.Value{value.Str(line[0]), value.Str(line[1])})
	}
	return s.writeRows(settingColumns, sb.Build())
}

// showIndexes prints one row per index.
func (s *Session) showIndexes(ctx context.Context, name string) error {
	t, err := s.table(ctx, name)
	if err != nil {
		return err
	}
	b := columnar.NewRowBuilder(s.cfg.Mem, describeColumns)
	for _, ix := range t.Indexes {
		b.Append(indexRow(ix))
	}
	return s.writeRows(describeColumns, b.Build())
}

func indexRow(ix planner.IndexDef) []value.Value {
	kind := "LSI"
	if ix.Global {
		kind = "GSI"
	}
	proj := ix.Projection.Type
	if proj == "INCLUDE" && len(ix.Projection.NonKey) > 0 {
		proj = "INCLUDE (" + joinNames(ix.Projection.NonKey) + ")"
	}
	return structureRow(ix.Name, kind, ix.PK, ix.SK, proj, ix.ItemCount, ix.SizeBytes)
}

func structureRow(name, kind string, pk planner.KeyAttr, sk *planner.KeyAttr, proj string, items, size int64) []value.Value {
	skText := value.MissingValue()
	if sk != nil {
		skText = value.Str(keyText(*sk))
	}
	return []value.Value{value.Str(name), value.Str(kind), value.Str(keyText(pk)), skText, value.Str(proj),
		value.NumTrusted(fmt.Sprint(items)), value.NumTrusted(fmt.Sprint(size))}
}

func keyText(k planner.KeyAttr) string { return fmt.Sprintf("%s (%s)", k.Name, k.Type) }

func joinNames(names []string) string {
	out := ""
	for i, n := range names {
		if i > 0 {
			out += ", "
		}
		out += n
	}
	return out
}

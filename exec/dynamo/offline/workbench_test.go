package offline

import (
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// A model as the NoSQL Workbench exports it (fields it writes that ddbsql
// does not need are kept, to show they are ignored).
const workbenchModel = `{
  "ModelName": "Shop",
  "ModelMetadata": {"Author": "", "DateCreated": "Jan 12, 2026, 10:14 AM", "AWSService": "Amazon DynamoDB", "Version": "3.0"},
  "DataModel": [
    {
      "TableName": "Orders",
      "KeyAttributes": {
        "PartitionKey": {"AttributeName": "pk", "AttributeType": "S"},
        "SortKey": {"AttributeName": "sk", "AttributeType": "S"}
      },
      "NonKeyAttributes": [
        {"AttributeName": "status", "AttributeType": "S"},
        {"AttributeName": "total", "AttributeType": "N"}
      ],
      "TableFacets": [],
      "GlobalSecondaryIndexes": [
        {
          "IndexName": "ByStatus",
          "KeyAttributes": {
            "PartitionKey": {"AttributeName": "status", "AttributeType": "S"},
            "SortKey": {"AttributeName": "total", "AttributeType": "N"}
          },
          "Projection": {"ProjectionType": "INCLUDE", "NonKeyAttributes": ["note"]}
        }
      ],
      "LocalSecondaryIndexes": [
        {
          "IndexName": "ByTotal",
          "KeyAttributes": {
            "PartitionKey": {"AttributeName": "pk", "AttributeType": "S"},
            "SortKey": {"AttributeName": "total", "AttributeType": "N"}
          },
          "Projection": {"ProjectionType": "KEYS_ONLY"}
        }
      ],
      "TableData": [
        {"pk": {"S": "c1"}, "sk": {"S": "o1"}, "status": {"S": "shipped"}, "total": {"N": "30"}, "note": {"S": "gift"}},
        {"pk": {"S": "c1"}, "sk": {"S": "o2"}, "status": {"S": "placed"}, "total": {"N": "5.5"}},
        {"pk": {"S": "c2"}, "sk": {"S": "o3"}, "status": {"S": "shipped"}, "total": {"N": 12}}
      ],
      "DataAccess": {"MySql": {}},
      "BillingMode": "PROVISIONED",
      "ProvisionedCapacitySettings": {"ProvisionedThroughput": {"ReadCapacityUnits": 5, "WriteCapacityUnits": 5}}
    },
    {
      "TableName": "Customers",
      "KeyAttributes": {"PartitionKey": {"AttributeName": "id", "AttributeType": "S"}},
      "NonKeyAttributes": [],
      "TableFacets": [
        {
          "FacetName": "Customer",
          "KeyAttributeAlias": {"PartitionKeyAlias": "id"},
          "TableData": [
            {"id": {"S": "c1"}, "name": {"S": "Alice"}},
            {"id": {"S": "c2"}, "name": {"S": "Bob"}}
          ],
          "NonKeyAttributes": ["name"]
        }
      ]
    }
  ]
}
`

func TestLoadWorkbench(t *testing.T) {
	dir := t.TempDir()
	p := write(t, dir, "shop.json", workbenchModel)
	db := newDB()
	got := mustLoad(t, db, Source{Path: p})
	if len(got) != 2 || got[0] != (LoadedTable{"Orders", 3, p}) || got[1] != (LoadedTable{"Customers", 2, p}) {
		t.Fatalf("loaded %+v", got)
	}
	shipped := query(t, db, eq("Orders", "ByStatus", "status", S("shipped")))
	if len(shipped) != 2 || sOf(shipped[0], "total") != "12" || sOf(shipped[1], "note") != "gift" {
		t.Fatalf("ByStatus shipped: %v (want total order, INCLUDE note)", shipped)
	}
	if len(query(t, db, eq("Orders", "ByTotal", "pk", S("c1")))) != 2 {
		t.Fatal("LSI ByTotal")
	}
	out, err := db.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("Orders")})
	if err != nil {
		t.Fatal(err)
	}
	if g := out.Table.GlobalSecondaryIndexes; len(g) != 1 || g[0].Projection.ProjectionType != types.ProjectionTypeInclude {
		t.Errorf("GSIs %+v", g)
	}
	if c := query(t, db, eq("Customers", "", "id", S("c2"))); len(c) != 1 || sOf(c[0], "name") != "Bob" {
		t.Fatalf("Customers c2: %v", c)
	}
}

func TestLoadWorkbenchGzipOneTableRenamed(t *testing.T) {
	dir := t.TempDir()
	one := strings.Replace(workbenchModel, `"TableName": "Orders"`, `"TableName": "Only"`, 1)
	one = one[:strings.Index(one, `    {
      "TableName": "Customers"`)]
	one = strings.TrimRight(one, " \n,") + "\n  ]\n}\n"
	p := write(t, dir, "model.json.gz", one)
	db := newDB()
	got := mustLoad(t, db, Source{Path: p, Table: "orders_v2", Keys: []string{"pk:S", "sk"}})
	if len(got) != 1 || got[0].Name != "orders_v2" || got[0].Items != 3 {
		t.Fatalf("loaded %+v", got)
	}
}

func TestWorkbenchErrors(t *testing.T) {
	for _, tc := range []struct {
		name, model string
		src         Source
		code        diag.Code
		msg         string
	}{
		{"name for several tables", workbenchModel, Source{Table: "one"}, diag.CodeBadModel,
			"DIR/m.json: name=one names one table, but the model has 2 tables"},
		{"--key disagrees", workbenchModel, Source{Keys: []string{"PK", "SK"}}, diag.CodeKeyMismatch,
			"DIR/m.json: --key PK, SK disagrees with table Orders's key in the model (pk, sk)"},
		{"item without its key", strings.Replace(workbenchModel, `{"pk": {"S": "c1"}, "sk": {"S": "o2"}`, `{"pk": {"S": "c1"}`, 1), Source{}, diag.CodeMissingKey,
			"DIR/m.json:38: item has no sort key sk (table Orders has key pk, sk)"},
		{"duplicate in facets", strings.Replace(workbenchModel, `{"id": {"S": "c2"}, "name": {"S": "Bob"}}`, `{"id": {"S": "c1"}, "name": {"S": "Bob"}}`, 1), Source{}, diag.CodeDuplicateKey,
			`DIR/m.json:55: duplicate key id="c1": the same key is at DIR/m.json:54`},
		{"index key of the wrong type", strings.Replace(workbenchModel, `"total": {"N": 12}`, `"total": {"S": "12"}`, 1), Source{}, diag.CodeBadItem,
			"DIR/m.json:39: DynamoDB would reject this item: One or more parameter values were invalid: Type mismatch for Index Key total Expected: N Actual: S IndexName: ByTotal"},
		{"key type", strings.Replace(workbenchModel, `"AttributeName": "id", "AttributeType": "S"`, `"AttributeName": "id", "AttributeType": "M"`, 1), Source{}, diag.CodeBadModel,
			`DIR/m.json: table "Customers": KeyAttributes: id has type "M"; key attributes are S, N or B`},
		{"projection", strings.Replace(workbenchModel, `"KEYS_ONLY"`, `"SOME"`, 1), Source{}, diag.CodeBadModel,
			`DIR/m.json: table "Orders": index "ByTotal": ProjectionType "SOME" is not ALL, KEYS_ONLY or INCLUDE`},
		{"no tables", `{"ModelName": "x", "DataModel": []}`, Source{}, diag.CodeBadModel,
			"DIR/m.json: the model has no tables (DataModel is empty)"},
		{"invalid JSON", strings.Replace(workbenchModel, `"TableFacets": [],`, `"TableFacets": [],,`, 1), Source{}, diag.CodeBadModel,
			"DIR/m.json:15:25: invalid JSON: invalid character ',' looking for beginning of object key string"},
		{"wrong JSON type", strings.Replace(workbenchModel, `"TableName": "Customers"`, `"TableName": 7`, 1), Source{}, diag.CodeBadModel,
			"DIR/m.json:46: DataModel.TableName is a JSON number, expected a string"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			tc.src.Path = write(t, dir, "m.json", tc.model)
			db := newDB()
			e := loadErr(t, db, tc.code, tc.src)
			if got := strings.ReplaceAll(e.Error(), dir, "DIR"); got != tc.msg {
				t.Errorf("error\n got: %s\nwant: %s", got, tc.msg)
			}
			if names := tableNames(t, db); len(names) != 0 {
				t.Errorf("tables %v left after a failed load", names)
			}
		})
	}
}

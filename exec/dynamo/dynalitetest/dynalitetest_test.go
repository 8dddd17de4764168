package dynalitetest

import (
	"context"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

const childEnv = "DDBSQL_DYNALITETEST_CHILD"

// TestEndpointFailsWithoutVariable runs Endpoint in a child test process
// without DDBSQL_TEST_DYNALITE and checks that the child test fails (not
// skips) and tells the user to run make test.
func TestEndpointFailsWithoutVariable(t *testing.T) {
	if os.Getenv(childEnv) == "1" {
		Endpoint(t)
		t.Log("Endpoint returned without failing")
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestEndpointFailsWithoutVariable$", "-test.v", "-test.count=1")
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, EnvEndpoint+"=") {
			cmd.Env = append(cmd.Env, kv)
		}
	}
	cmd.Env = append(cmd.Env, childEnv+"=1")
	out, err := cmd.CombinedOutput()
	if _, ok := err.(*exec.ExitError); !ok {
		t.Fatalf("child test did not fail (err %v); output:\n%s", err, out)
	}
	for _, want := range []string{"--- FAIL: TestEndpointFailsWithoutVariable", EnvEndpoint + " is not set", "make test"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("child output lacks %q:\n%s", want, out)
		}
	}
	for _, bad := range []string{"--- SKIP", "Endpoint returned without failing"} {
		if strings.Contains(string(out), bad) {
			t.Errorf("child output has %q:\n%s", bad, out)
		}
	}
}

func TestEndpointFrom(t *testing.T) {
	for _, tc := range []struct {
		raw, want, errPart string
	}{
		{raw: "", errPart: "make test"},
		{raw: "  ", errPart: "make test"},
		{raw: "127.0.0.1:8000", errPart: "not an http(s)://host:port URL"},
		{raw: "ftp://127.0.0.1:8000", errPart: "not an http(s)://host:port URL"},
		{raw: "http://127.0.0.1:8000", want: "http://127.0.0.1:8000"},
		{raw: "http://127.0.0.1:8000/ ", want: "http://127.0.0.1:8000"},
	} {
		got, err := endpointFrom(tc.raw)
		if tc.errPart != "" {
			if err == nil || !strings.Contains(err.Error(), tc.errPart) {
				t.Errorf("endpointFrom(%q) = %q, %v; want error containing %q", tc.raw, got, err, tc.errPart)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("endpointFrom(%q) = %q, %v; want %q", tc.raw, got, err, tc.want)
		}
	}
}

var tableNameRE = regexp.MustCompile(`^[A-Za-z0-9_.-]+$`)

func TestMakePrefix(t *testing.T) {
	long := "TestSomething/with a very long subtest name: ünïcode & spaces/" + strings.Repeat("x", 300)
	seen := map[string]bool{}
	for _, name := range []string{"TestA", "TestA", long, "", "Test#1/sub-test.x"} {
		for _, pid := range []int{1, 4242} {
			p := makePrefix(name, pid, "9f3a2c1b", uint64(len(seen)+1))
			if seen[p] {
				t.Errorf("prefix %q returned twice", p)
			}
			seen[p] = true
			if !tableNameRE.MatchString(p + "app") {
				t.Errorf("prefix %q makes invalid table names", p)
			}
			if len(p) > maxNamePart+40 {
				t.Errorf("prefix %q is %d characters", p, len(p))
			}
		}
	}
}

// TestPrefixDeletesTables checks the cleanup Prefix registers, against dynalite.
func TestPrefixDeletesTables(t *testing.T) {
	c := Client(t)
	ctx := context.Background()
	var prefix string
	t.Run("inner", func(t *testing.T) {
		prefix = Prefix(t)
		if other := Prefix(t); other == prefix {
			t.Fatalf("Prefix returned %q twice", prefix)
		}
		for _, n := range []string{"a", "b"} {
			_, err := c.CreateTable(ctx, &dynamodb.CreateTableInput{
				TableName:            aws.String(prefix + n),
				BillingMode:          types.BillingModePayPerRequest,
				KeySchema:            []types.KeySchemaElement{{AttributeName: aws.String("id"), KeyType: types.KeyTypeHash}},
				AttributeDefinitions: []types.AttributeDefinition{{AttributeName: aws.String("id"), AttributeType: types.ScalarAttributeTypeS}},
			})
			if err != nil {
				t.Fatal(err)
			}
		}
	})
	if os.Getenv(EnvKeepTables) == "1" {
		t.Skip("tables kept on request")
	}
	out, err := c.ListTables(ctx, &dynamodb.ListTablesInput{ExclusiveStartTableName: aws.String(prefix)})
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range out.TableNames {
		if strings.HasPrefix(n, prefix) {
			t.Errorf("table %s survived its test", n)
		}
	}
}

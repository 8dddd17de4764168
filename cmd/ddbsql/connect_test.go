package main

import (
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/ddbsql/ddbsql/exec/dynamo/dynalitetest"
	"github.com/ddbsql/ddbsql/parser/diag"
)

// awsVariables are the environment variables that configure the AWS SDK's
// endpoint, region, profile and credential chain.
var awsVariables = []string{
	"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN", "AWS_PROFILE", "AWS_DEFAULT_PROFILE",
	"AWS_REGION", "AWS_DEFAULT_REGION", "AWS_ENDPOINT_URL", "AWS_ENDPOINT_URL_DYNAMODB",
	"AWS_IGNORE_CONFIGURED_ENDPOINT_URLS", "AWS_CONTAINER_CREDENTIALS_FULL_URI",
	"AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_ROLE_ARN",
	"AWS_EC2_METADATA_DISABLED", "AWS_EC2_METADATA_SERVICE_ENDPOINT",
}

// bareAWS leaves the test with no AWS configuration at all: no variables,
// empty config and credentials files (config holds the given text).
func bareAWS(t *testing.T, config string) {
	t.Helper()
	for _, name := range awsVariables {
		t.Setenv(name, "")
		os.Unsetenv(name)
	}
	dir := t.TempDir()
	cfg := filepath.Join(dir, "config")
	if err := os.WriteFile(cfg, []byte(config), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("AWS_CONFIG_FILE", cfg)
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(dir, "credentials"))
}

// imdsSpy stands in for the EC2 instance metadata service and counts the
// requests the credential chain sends it.
func imdsSpy(t *testing.T) *atomic.Int64 {
	t.Helper()
	var hits atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		http.NotFound(w, r)
	}))
	t.Cleanup(srv.Close)
	t.Setenv("AWS_EC2_METADATA_SERVICE_ENDPOINT", srv.URL)
	return &hits
}

// TestConnectionErrors checks that each kind of bad connection setting has
// its own code and a message naming the setting, with exit status 1. None
// needs a server.
func TestConnectionErrors(t *testing.T) {
	cases := []struct {
		name   string
		env    map[string]string
		config string // the shared config file
		args   []string
		code   diag.Code
		want   []string // lines or parts of stderr
	}{
		{name: "unreachable endpoint", args: []string{"--endpoint-url", "http://127.0.0.1:1"}, code: diag.CodeUnreachable,
			want: []string{"error: cannot reach http://127.0.0.1:1 (ListTables): connection refused"}},
		{name: "endpoint without a scheme", args: []string{"--endpoint-url", "localhost:8000"}, code: diag.CodeEndpoint,
			want: []string{`error: --endpoint-url "localhost:8000" is not a URL like http://localhost:8000` + "\n", "hint: did you mean http://localhost:8000?\n"}},
		{name: "endpoint that is not a URL", args: []string{"--endpoint-url", "http://[::1"}, code: diag.CodeEndpoint,
			want: []string{`error: --endpoint-url "http://[::1" is not a URL like http://localhost:8000`}},
		{name: "endpoint with another scheme", args: []string{"--endpoint-url", "ftp://localhost:21"}, code: diag.CodeEndpoint,
			want: []string{`error: --endpoint-url "ftp://localhost:21" uses the scheme ftp: DynamoDB endpoints are http:// or https:// URLs`}},
		{name: "endpoint with a bad port", args: []string{"--endpoint-url", "http://localhost:80000"}, code: diag.CodeEndpoint,
			want: []string{`error: --endpoint-url "http://localhost:80000" has port 80000`}},
		{name: "bad AWS_ENDPOINT_URL_DYNAMODB", env: map[string]string{"AWS_ENDPOINT_URL_DYNAMODB": "dynamodb.local:8000"}, code: diag.CodeEndpoint,
			want: []string{`error: AWS_ENDPOINT_URL_DYNAMODB "dynamodb.local:8000" is not a URL like http://localhost:8000`, "hint: did you mean http://dynamodb.local:8000?"}},
		{name: "bad AWS_ENDPOINT_URL", env: map[string]string{"AWS_ENDPOINT_URL": "gopher://localhost"}, code: diag.CodeEndpoint,
			want: []string{`error: AWS_ENDPOINT_URL "gopher://localhost" uses the scheme gopher`, "hint: fix AWS_ENDPOINT_URL"}},
		{name: "missing region", code: diag.CodeRegion,
			want: []string{"error: no AWS region configured\n", "hint: use --region, AWS_REGION"}},
		{name: "missing credentials", args: []string{"--region", "eu-west-1"}, env: map[string]string{"AWS_EC2_METADATA_DISABLED": "true"}, code: diag.CodeCredentials,
			want: []string{"error: no AWS credentials found\n", "hint: use --profile NAME"}},
		{name: "unknown --profile", config: "[default]\nregion = eu-west-1\n", args: []string{"--profile", "nosuch"}, code: diag.CodeProfile,
			want: []string{`error: AWS profile "nosuch" (--profile) does not exist in the shared config or credentials file`, "hint: aws configure list-profiles"}},
		{name: "unknown AWS_PROFILE", config: "[default]\nregion = eu-west-1\n", env: map[string]string{"AWS_PROFILE": "ghost"}, code: diag.CodeProfile,
			want: []string{`error: AWS profile "ghost" (AWS_PROFILE) does not exist`}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			bareAWS(t, tc.config)
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			r := invoke(append(tc.args, "-e", "SHOW TABLES"), "")
			if r.code != exitError || r.errorCode() != tc.code {
				t.Fatalf("exit %d, code %q; want exit 1, code %q\nstderr: %s", r.code, r.errorCode(), tc.code, r.err)
			}
			for _, w := range tc.want {
				if !strings.Contains(r.err, w) {
					t.Errorf("stderr lacks %q:\n%s", w, r.err)
				}
			}
		})
	}
}

// TestEndpointFromEnvironment checks that an endpoint set by
// AWS_ENDPOINT_URL_DYNAMODB or AWS_ENDPOINT_URL on a loopback address gets
// what a loopback --endpoint-url gets: dummy credentials when none are
// configured, a default region, and no questions to the EC2 metadata
// service; and that another host does not get dummy credentials.
func TestEndpointFromEnvironment(t *testing.T) {
	endpoint := dynalitetest.Endpoint(t)
	for _, name := range []string{"AWS_ENDPOINT_URL_DYNAMODB", "AWS_ENDPOINT_URL"} {
		t.Run(name, func(t *testing.T) {
			bareAWS(t, "")
			imds := imdsSpy(t)
			t.Setenv(name, endpoint)
			r := invoke([]string{"--format", "csv", "-e", "SHOW TABLES"}, "")
			if r.code != exitOK || !strings.HasPrefix(r.out, "table_name\n") {
				t.Fatalf("exit %d\nstdout: %s\nstderr: %s", r.code, r.out, r.err)
			}
			if n := imds.Load(); n != 0 {
				t.Errorf("the credential chain asked the instance metadata service %d times", n)
			}
		})
	}
	t.Run("a remote endpoint gets no dummy credentials", func(t *testing.T) {
		bareAWS(t, "")
		t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
		t.Setenv("AWS_ENDPOINT_URL_DYNAMODB", "http://dynamodb.invalid:8000")
		r := invoke([]string{"-e", "SHOW TABLES"}, "")
		if r.code != exitError || r.errorCode() != diag.CodeCredentials {
			t.Fatalf("exit %d, code %q; want the credentials error\nstderr: %s", r.code, r.errorCode(), r.err)
		}
	})
}

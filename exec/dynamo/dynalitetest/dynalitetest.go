package dynalitetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/ratelimit"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
)

// EnvEndpoint names the variable holding the dynalite URL, set by scripts/test.sh.
const EnvEndpoint = "DDBSQL_TEST_DYNALITE"

// EnvKeepTables, when "1", keeps tables named with a Prefix after the test.
const EnvKeepTables = "DDBSQL_TEST_KEEP_TABLES"

// Region is the region of every test client.
const Region = "us-east-1"

// Endpoint returns the dynalite URL from DDBSQL_TEST_DYNALITE. When the
// variable is unset or malformed it fails the test (t.Fatal, never Skip) and
// says how to run the tests.
func Endpoint(t testing.TB) string {
	t.Helper()
	ep, err := endpointFrom(os.Getenv(EnvEndpoint))
	if err != nil {
		t.Fatal(err)
	}
	return ep
}

// endpointFrom validates the variable's value; its error is the message
// Endpoint fails the test with.
func endpointFrom(raw string) (string, error) {
	raw = strings.TrimSpace(raw)
	if raw == "" {
		return "", errors.New("dynalitetest: " + EnvEndpoint + " is not set: this test needs the dynalite server " +
			"that the test command starts; run `make test` (or scripts/test.sh [go test flags]) from the repository root " +
			"instead of plain `go test`, or start one with `make dynalite` and set " + EnvEndpoint + "=http://127.0.0.1:8000")
	}
	u, err := url.Parse(raw)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return "", fmt.Errorf("dynalitetest: %s=%q is not an http(s)://host:port URL; run `make test`", EnvEndpoint, raw)
	}
	return strings.TrimRight(raw, "/"), nil
}

var (
	clientsMu sync.Mutex
	clients   = map[string]*dynamodb.Client{}
)

// Client returns an SDK client for the dynalite endpoint (see Endpoint).
func Client(t testing.TB) *dynamodb.Client {
	t.Helper()
	ep := Endpoint(t)
	clientsMu.Lock()
	defer clientsMu.Unlock()
	if c, ok := clients[ep]; ok {
		return c
	}
	c := NewClient(ep)
	clients[ep] = c
	return c
}

// NewClient builds a client for any DynamoDB-compatible endpoint with the
// test settings: dummy static credentials, us-east-1, BaseEndpoint, standard
// retries (5 attempts, no retry quota), 5 s dial and 2 min request timeouts.
func NewClient(endpoint string) *dynamodb.Client {
	creds := aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
		return aws.Credentials{AccessKeyID: "ddbsqltest", SecretAccessKey: "ddbsqltest", Source: "dynalitetest"}, nil
	})
	httpClient := awshttp.NewBuildableClient().
		WithTimeout(2 * time.Minute).
		WithDialerOptions(func(d *net.Dialer) { d.Timeout = 5 * time.Second }).
		WithTransportOptions(func(tr *http.Transport) {
			tr.MaxIdleConnsPerHost = 64
			tr.ResponseHeaderTimeout = time.Minute
		})
	return dynamodb.New(dynamodb.Options{
		Region:       Region,
		BaseEndpoint: aws.String(endpoint),
		Credentials:  aws.NewCredentialsCache(creds),
		HTTPClient:   httpClient,
		Retryer: retry.NewStandard(func(o *retry.StandardOptions) {
			o.MaxAttempts = 5
			o.MaxBackoff = 2 * time.Second
			o.RateLimiter = ratelimit.None
		}),
	})
}

var (
	processTag = newProcessTag()
	prefixSeq  atomic.Uint64
)

func newProcessTag() string {
	var b [4]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err) // crypto/rand does not fail on supported platforms
	}
	return hex.EncodeToString(b[:])
}

// maxNamePart bounds the test-name part so prefixed names stay well below
// DynamoDB's 255-character limit.
const maxNamePart = 48

// Prefix returns a table-name prefix unique to this call, e.g.
// "TestLoad-4242-9f3a2c1b-1.", and registers a cleanup that deletes every
// table whose name starts with it (unless DDBSQL_TEST_KEEP_TABLES=1). It
// needs the dynalite endpoint (see Endpoint).
func Prefix(t testing.TB) string {
	t.Helper()
	c := Client(t)
	p := makePrefix(t.Name(), os.Getpid(), processTag, prefixSeq.Add(1))
	if os.Getenv(EnvKeepTables) != "1" {
		t.Cleanup(func() {
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			if err := DeleteTables(ctx, c, p); err != nil {
				t.Errorf("dynalitetest: deleting tables with prefix %q: %v", p, err)
			}
		})
	}
	return p
}

// makePrefix builds "<name>-<pid>-<tag>-<seq>." from DynamoDB's table-name
// alphabet [A-Za-z0-9_.-].
func makePrefix(testName string, pid int, tag string, seq uint64) string {
	var b strings.Builder
	for _, r := range testName {
		if b.Len() >= maxNamePart {
			break
		}
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '_', r == '-':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	name := b.String()
	if name == "" {
		name = "t"
	}
	return fmt.Sprintf("%s-%d-%s-%d.", name, pid, tag, seq)
}

// DeleteTables deletes every table whose name starts with prefix.
func DeleteTables(ctx context.Context, c *dynamodb.Client, prefix string) error {
	var names []string
	in := &dynamodb.ListTablesInput{ExclusiveStartTableName: aws.String(prefix)}
	for {
		out, err := c.ListTables(ctx, in)
		if err != nil {
			return err
		}
		done := false
		for _, n := range out.TableNames {
			if !strings.HasPrefix(n, prefix) {
				if n > prefix {
					done = true
					break
				}
				continue
			}
			names = append(names, n)
		}
		if done || out.LastEvaluatedTableName == nil {
			break
		}
		in.ExclusiveStartTableName = out.LastEvaluatedTableName
	}
	var errs []error
	for _, n := range names {
		if _, err := c.DeleteTable(ctx, &dynamodb.DeleteTableInput{TableName: aws.String(n)}); err != nil {
			errs = append(errs, fmt.Errorf("%s: %w", n, err))
		}
	}
	// dynalite finishes a deletion on a timer; under load that can lag, so
	// wait until the tables are really gone.
	for _, n := range names {
		if err := waitDeleted(ctx, c, n); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}

func waitDeleted(ctx context.Context, c *dynamodb.Client, name string) error {
	deadline := time.Now().Add(30 * time.Second)
	for delay := 5 * time.Millisecond; ; delay = min(2*delay, 500*time.Millisecond) {
		_, err := c.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String(name)})
		var notFound *types.ResourceNotFoundException
		if errors.As(err, &notFound) {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("%s: still there 30 s after DeleteTable", name)
		}
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-time.After(delay):
		}
	}
}

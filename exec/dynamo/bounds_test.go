package dynamo

import (
	"context"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/aws/retry"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
)

// silentListener accepts TCP connections and never answers: the endpoint
// that is up but dead. It counts the connections and closes them when the
// test ends.
type silentListener struct {
	ln       net.Listener
	accepted atomic.Int64
	mu       sync.Mutex
	conns    []net.Conn
}

func newSilentListener(t *testing.T) *silentListener {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	s := &silentListener{ln: ln}
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			s.accepted.Add(1)
			s.mu.Lock()
			s.conns = append(s.conns, c)
			s.mu.Unlock()
		}
	}()
	t.Cleanup(func() {
		ln.Close()
		s.mu.Lock()
		defer s.mu.Unlock()
		for _, c := range s.conns {
			c.Close()
		}
	})
	return s
}

func (s *silentListener) url() string { return "http://" + s.ln.Addr().String() }

// quickConnect connects with short bounds and a short retry backoff, so
// that a test of three attempts takes about a second.
func quickConnect(t *testing.T, endpoint string, opts ConnectOptions) *dynamodb.Client {
	t.Helper()
	opts.EndpointURL = endpoint
	conn, err := Connect(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	return conn.Client
}

func shortBackoff(o *dynamodb.Options) {
	o.Retryer = retry.AddWithMaxBackoffDelay(o.Retryer, 10*time.Millisecond)
}

// backoffClient adds the short backoff to every call.
type backoffClient struct{ *dynamodb.Client }

func (c backoffClient) DescribeTable(ctx context.Context, in *dynamodb.DescribeTableInput, o ...func(*dynamodb.Options)) (*dynamodb.DescribeTableOutput, error) {
	return c.Client.DescribeTable(ctx, in, append(o, shortBackoff)...)
}

func (c backoffClient) ListTables(ctx context.Context, in *dynamodb.ListTablesInput, o ...func(*dynamodb.Options)) (*dynamodb.ListTablesOutput, error) {
	return c.Client.ListTables(ctx, in, append(o, shortBackoff)...)
}

func TestMetadataAttemptsAreBounded(t *testing.T) {
	srv := newSilentListener(t)
	client := quickConnect(t, srv.url(), ConnectOptions{MetadataAttemptTimeout: 200 * time.Millisecond})
	cat := NewCatalog(backoffClient{client})
	watch := &Watch{}
	ctx := WithWatch(context.Background(), watch)

	_, err := cat.Table(ctx, "app")
	var na *NoAnswerError
	if !errors.As(err, &na) {
		t.Fatalf("DescribeTable on a silent endpoint: %v (%T), want a NoAnswerError", err, err)
	}
	want := "no answer from " + srv.url() + " within 200ms per attempt, 3 attempts (DescribeTable app)"
	if na.Error() != want {
		t.Errorf("message %q\nwant    %q", na.Error(), want)
	}
	if n := srv.accepted.Load(); n != MetadataAttempts {
		t.Errorf("the endpoint saw %d connections, want one per attempt (%d)", n, MetadataAttempts)
	}
	if watch.Answered() {
		t.Error("the watch says a request was answered")
	}
	r, ok := watch.Unanswered()
	if !ok || r.Op != "DescribeTable" || r.Table != "app" || r.Endpoint != srv.url() {
		t.Errorf("unanswered request = %+v, %v", r, ok)
	}

	_, err = cat.Tables(context.Background())
	if !errors.As(err, &na) || na.Op != "ListTables" || na.Table != "" || na.Attempts != MetadataAttempts {
		t.Fatalf("ListTables on a silent endpoint: %v", err)
	}
	if got := na.Error(); got != "no answer from "+srv.url()+" within 200ms per attempt, 3 attempts (ListTables)" {
		t.Errorf("message %q", got)
	}
}

func TestReadAttemptsAreBoundedBySilence(t *testing.T) {
	srv := newSilentListener(t)
	client := quickConnect(t, srv.url(), ConnectOptions{ReadIdleTimeout: 200 * time.Millisecond, MaxAttempts: 2})
	_, err := client.Query(context.Background(), &dynamodb.QueryInput{TableName: aws.String("app")}, shortBackoff)
	var na *NoAnswerError
	if !errors.As(err, &na) {
		t.Fatalf("Query on a silent endpoint: %v (%T), want a NoAnswerError", err, err)
	}
	if want := "no answer from " + srv.url() + " within 200ms per attempt, 2 attempts (Query app)"; na.Error() != want {
		t.Errorf("message %q\nwant    %q", na.Error(), want)
	}
}

func TestCallerDeadlineIsNotRetried(t *testing.T) {
	// The caller's deadline ends the call at once (no further attempt) and
	// is not a NoAnswerError: the caller knows its own deadline.
	srv := newSilentListener(t)
	client := quickConnect(t, srv.url(), ConnectOptions{})
	watch := &Watch{}
	ctx, cancel := context.WithTimeout(WithWatch(context.Background(), watch), 300*time.Millisecond)
	defer cancel()
	_, err := client.Scan(ctx, &dynamodb.ScanInput{TableName: aws.String("big")})
	var na *NoAnswerError
	if err == nil || errors.As(err, &na) || !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err = %v, want the caller's deadline", err)
	}
	if n := srv.accepted.Load(); n != 1 {
		t.Errorf("%d connections, want 1", n)
	}
	r, ok := watch.Unanswered()
	if !ok || r.Op != "Scan" || r.Table != "big" || r.Failure != nil {
		t.Errorf("unanswered = %+v, %v", r, ok)
	}
}

func TestAnErrorResponseIsAnAnswer(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/x-amz-json-1.0")
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte(`{"__type":"com.amazonaws.dynamodb.v20120810#ResourceNotFoundException","message":"Requested resource not found"}`))
	}))
	defer srv.Close()
	client := quickConnect(t, srv.URL, ConnectOptions{})
	watch := &Watch{}
	_, err := NewCatalog(client).Table(WithWatch(context.Background(), watch), "nosuch")
	if err == nil {
		t.Fatal("no error for a missing table")
	}
	if !watch.Answered() {
		t.Error("an error response does not count as an answer")
	}
	if r, ok := watch.Unanswered(); ok {
		t.Errorf("unanswered = %+v", r)
	}
	if watch.ReadAnswered() {
		t.Error("an answered DescribeTable counts as a read")
	}
	_, _ = client.Query(WithWatch(context.Background(), watch), &dynamodb.QueryInput{TableName: aws.String("nosuch")})
	if !watch.ReadAnswered() {
		t.Error("an answered Query does not count as a read")
	}
}

func TestRefusedConnectionsAreRemembered(t *testing.T) {
	// A refused connection is retried; when the caller's deadline ends the
	// backoff, the watch still knows why the attempts failed.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	endpoint := "http://" + ln.Addr().String()
	ln.Close()
	client := quickConnect(t, endpoint, ConnectOptions{MaxAttempts: 50})
	watch := &Watch{}
	ctx, cancel := context.WithTimeout(WithWatch(context.Background(), watch), 500*time.Millisecond)
	defer cancel()
	if _, err := client.ListTables(ctx, &dynamodb.ListTablesInput{}); err == nil {
		t.Fatal("ListTables succeeded on a closed port")
	}
	r, ok := watch.Unanswered()
	if !ok || r.Failure == nil {
		t.Fatalf("unanswered = %+v, %v; want the refused attempts' error", r, ok)
	}
}

// blackHole is an HTTP client that never answers: each request waits for
// its context to end.
type blackHole struct{}

func (blackHole) Do(r *http.Request) (*http.Response, error) {
	<-r.Context().Done()
	return nil, r.Context().Err()
}

func TestRegionalEndpointIsNamed(t *testing.T) {
	// Without a configured endpoint the watch names the one the SDK
	// resolved for the region.
	t.Setenv("AWS_ENDPOINT_URL", "")
	t.Setenv("AWS_ENDPOINT_URL_DYNAMODB", "")
	conn, err := Connect(context.Background(), ConnectOptions{Region: "eu-west-3"})
	if err != nil {
		t.Fatal(err)
	}
	watch := &Watch{}
	ctx, cancel := context.WithTimeout(WithWatch(context.Background(), watch), 200*time.Millisecond)
	defer cancel()
	_, err = conn.Client.DescribeTable(ctx, &dynamodb.DescribeTableInput{TableName: aws.String("app")}, func(o *dynamodb.Options) {
		o.HTTPClient = blackHole{}
		o.Credentials = credentials.NewStaticCredentialsProvider("id", "secret", "")
	})
	if err == nil {
		t.Fatal("DescribeTable got an answer from a black hole")
	}
	r, ok := watch.Unanswered()
	if !ok || r.Endpoint != "https://dynamodb.eu-west-3.amazonaws.com" || r.Op != "DescribeTable" || r.Table != "app" {
		t.Fatalf("unanswered = %+v, %v (err %v)", r, ok, err)
	}
}

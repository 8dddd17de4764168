package dynamo

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/feature/ec2/imds"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go/logging"
)

// ConnectOptions select the DynamoDB endpoint and credentials. Empty fields
// fall back to the standard AWS configuration chain (environment, shared
// config and credentials files, SSO, AWS_ENDPOINT_URL_DYNAMODB).
type ConnectOptions struct {
	EndpointURL string
	Region      string
	Profile     string
	// DialTimeout bounds connecting to the endpoint, so an unreachable
	// endpoint fails quickly instead of hanging.
	DialTimeout time.Duration
	// MaxAttempts bounds the SDK's retries (0: the SDK default).
	MaxAttempts int
}

// DefaultMaxAttempts is how often a request is tried before a statement
// fails (the SDK's default is 3; reports on busy tables deserve more).
const DefaultMaxAttempts = 8

// Connection is a ready client and a short label for prompts and messages.
type Connection struct {
	Client   *dynamodb.Client
	Label    string // "us-east-1" or "localhost:8000"
	Endpoint string // the endpoint URL when one was configured
	Region   string
}

// Connect builds a DynamoDB client. It does not send any request.
func Connect(ctx context.Context, opts ConnectOptions) (*Connection, error) {
	dial := opts.DialTimeout
	if dial == 0 {
		dial = 5 * time.Second
	}
	httpClient := awshttp.NewBuildableClient().WithDialerOptions(func(d *net.Dialer) {
		d.Timeout = dial
	}).WithTransportOptions(func(t *http.Transport) {
		t.ResponseHeaderTimeout = 60 * time.Second
		t.MaxIdleConnsPerHost = 64
	})
	// The SDK's own log lines (e.g. IMDS fallbacks) would interleave with
	// results on stderr; every failure reaches the user as an error instead.
	loaders := []func(*config.LoadOptions) error{config.WithHTTPClient(httpClient), config.WithLogger(logging.Nop{})}
	if opts.EndpointURL != "" {
		if u, err := url.Parse(opts.EndpointURL); err == nil && isLoopback(u.Hostname()) {
			// A local endpoint never needs EC2 instance credentials; asking
			// IMDS would only add a timeout.
			loaders = append(loaders, config.WithEC2IMDSClientEnableState(imds.ClientDisabled))
		}
	}
	if opts.Region != "" {
		loaders = append(loaders, config.WithRegion(opts.Region))
	}
	if opts.Profile != "" {
		loaders = append(loaders, config.WithSharedConfigProfile(opts.Profile))
	}
	// Adaptive retries back off on throttling (ProvisionedThroughputExceeded,
	// ThrottlingException) and 5xx, and slow the client down while DynamoDB
	// keeps throttling.
	attempts := opts.MaxAttempts
	if attempts <= 0 {
		attempts = DefaultMaxAttempts
	}
	loaders = append(loaders, config.WithRetryMode(aws.RetryModeAdaptive), config.WithRetryMaxAttempts(attempts))
	cfg, err := config.LoadDefaultConfig(ctx, loaders...)
	if err != nil {
		if opts.Profile != "" {
			return nil, fmt.Errorf("cannot load AWS profile %q: %w", opts.Profile, err)
		}
		return nil, fmt.Errorf("cannot load the AWS configuration: %w", err)
	}
	endpoint := opts.EndpointURL
	if endpoint == "" && cfg.BaseEndpoint != nil {
		endpoint = *cfg.BaseEndpoint
	}
	if endpoint != "" {
		u, err := url.Parse(endpoint)
		if err != nil || u.Scheme == "" || u.Host == "" {
			return nil, fmt.Errorf("--endpoint-url %q is not a URL like http://localhost:8000", endpoint)
		}
		if cfg.Region == "" {
			// DynamoDB Local and dynalite accept any region; signing needs one.
			cfg.Region = "us-east-1"
		}
		if isLoopback(u.Hostname()) {
			cfg.Credentials = localCredentials(cfg.Credentials)
		}
	}
	if cfg.Region == "" {
		return nil, fmt.Errorf("no AWS region configured: use --region, AWS_REGION or a profile with a region, or --endpoint-url for a local DynamoDB")
	}
	client := dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) {
		if opts.EndpointURL != "" {
			o.BaseEndpoint = aws.String(opts.EndpointURL)
		}
	})
	conn := &Connection{Client: client, Region: cfg.Region, Endpoint: endpoint, Label: cfg.Region}
	if endpoint != "" {
		u, _ := url.Parse(endpoint)
		conn.Label = u.Host
	}
	return conn, nil
}

func isLoopback(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// localCredentials uses the configured credentials when there are any and
// falls back to dummy ones: local DynamoDB servers accept any signature.
func localCredentials(chain aws.CredentialsProvider) aws.CredentialsProvider {
	fallback := credentials.NewStaticCredentialsProvider("local", "local", "")
	if chain == nil {
		return fallback
	}
	return aws.NewCredentialsCache(aws.CredentialsProviderFunc(func(ctx context.Context) (aws.Credentials, error) {
		if creds, err := chain.Retrieve(ctx); err == nil {
			return creds, nil
		}
		return fallback.Retrieve(ctx)
	}))
}

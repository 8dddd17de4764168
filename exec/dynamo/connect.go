package dynamo

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"os"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/feature/ec2/imds"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"
	"github.com/aws/smithy-go/logging"

	"github.com/ddbsql/ddbsql/parser/diag"
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
	// MaxAttempts bounds the SDK's retries (0: DefaultMaxAttempts).
	MaxAttempts int
	// MetadataAttemptTimeout bounds one attempt of DescribeTable and
	// ListTables (0: DefaultMetadataAttemptTimeout); see bounds.go.
	MetadataAttemptTimeout time.Duration
	// ReadIdleTimeout bounds how long a connection may stay silent during
	// any attempt (0: ReadIdleTimeout).
	ReadIdleTimeout time.Duration
}

// DefaultMaxAttempts is how often a request is tried before a statement
// fails (the SDK's default is 3; reports on busy tables deserve more).
const DefaultMaxAttempts = 8

// Connection is a ready client and a short label for prompts and messages.
type Connection struct {
	Client *dynamodb.Client
	Label  string // "us-east-1" or "localhost:8000"
	// Endpoint is the configured endpoint as scheme://host[:port] (flag,
	// environment or profile); empty when the SDK resolves the region's.
	Endpoint string
	Region   string
}

// Connect builds a DynamoDB client. It does not send any request. A setting
// it cannot use is a *diag.Error of phase connect saying which one and
// where it came from (its code: endpoint, region, profile or config);
// missing credentials only show on the first request (the SDK resolves them
// lazily), as the error of that request.
func Connect(ctx context.Context, opts ConnectOptions) (*Connection, error) {
	loaders := loadOptions(opts)
	if opts.EndpointURL != "" {
		u, err := (endpointSetting{url: opts.EndpointURL, source: "--endpoint-url"}).parse()
		if err != nil {
			return nil, err
		}
		if isLoopback(u.Hostname()) {
			loaders = append(loaders, disableIMDS)
		}
	}
	cfg, err := config.LoadDefaultConfig(ctx, loaders...)
	if err != nil {
		return nil, loadError(opts, err)
	}
	ep := configuredEndpoint(opts.EndpointURL, cfg)
	var u *url.URL
	if ep.url != "" {
		if u, err = ep.parse(); err != nil {
			return nil, err
		}
		if isLoopback(u.Hostname()) && opts.EndpointURL == "" {
			// AWS_ENDPOINT_URL_DYNAMODB (or the profile) points at a local
			// server: the same treatment as a loopback --endpoint-url. IMDS
			// is part of the credential chain LoadDefaultConfig builds, so
			// the configuration is loaded again without it.
			if cfg, err = config.LoadDefaultConfig(ctx, append(loaders, disableIMDS)...); err != nil {
				return nil, loadError(opts, err)
			}
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
		return nil, configError(diag.CodeRegion, "no AWS region configured",
			"use --region, AWS_REGION or a profile with a region, or --endpoint-url for a local DynamoDB", nil)
	}
	metadataWait := opts.MetadataAttemptTimeout
	if metadataWait <= 0 {
		metadataWait = DefaultMetadataAttemptTimeout
	}
	client := dynamodb.NewFromConfig(cfg, func(o *dynamodb.Options) {
		if opts.EndpointURL != "" {
			o.BaseEndpoint = aws.String(opts.EndpointURL)
		}
		o.APIOptions = append(o.APIOptions, installBounds(metadataWait))
	})
	conn := &Connection{Client: client, Region: cfg.Region, Label: cfg.Region}
	if u != nil {
		conn.Endpoint, conn.Label = origin(u), u.Host
	}
	return conn, nil
}

// loadOptions are the AWS config loaders every connection uses.
func loadOptions(opts ConnectOptions) []func(*config.LoadOptions) error {
	dial := opts.DialTimeout
	if dial == 0 {
		dial = 5 * time.Second
	}
	idle := opts.ReadIdleTimeout
	if idle <= 0 {
		idle = ReadIdleTimeout
	}
	// The read timeout fails an attempt whose connection stays silent
	// (waiting for the response headers or in the middle of the body); the
	// SDK retries it.
	httpClient := awshttp.NewBuildableClient().WithDialerOptions(func(d *net.Dialer) {
		d.Timeout = dial
	}).WithTransportOptions(func(t *http.Transport) {
		t.MaxIdleConnsPerHost = 64
	}).WithReadTimeout(idle)
	// The SDK's own log lines (e.g. IMDS fallbacks) would interleave with
	// results on stderr; every failure reaches the user as an error instead.
	loaders := []func(*config.LoadOptions) error{config.WithHTTPClient(httpClient), config.WithLogger(logging.Nop{})}
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
	return append(loaders, config.WithRetryMode(aws.RetryModeAdaptive), config.WithRetryMaxAttempts(attempts))
}

// disableIMDS keeps the credential chain from asking the EC2 instance
// metadata service: a local endpoint never needs instance credentials, and
// asking off EC2 only adds a timeout.
func disableIMDS(o *config.LoadOptions) error {
	return config.WithEC2IMDSClientEnableState(imds.ClientDisabled)(o)
}

// loadError explains why the shared configuration could not be loaded.
func loadError(opts ConnectOptions, err error) error {
	profile, source := opts.Profile, "--profile"
	if profile == "" {
		profile, source = os.Getenv("AWS_PROFILE"), "AWS_PROFILE"
	}
	var missing config.SharedConfigProfileNotExistError
	if errors.As(err, &missing) {
		return configError(diag.CodeProfile,
			fmt.Sprintf("AWS profile %q (%s) does not exist in the shared config or credentials file", missing.Profile, source),
			"aws configure list-profiles lists the profiles; AWS_CONFIG_FILE and AWS_SHARED_CREDENTIALS_FILE name the files", err)
	}
	if profile != "" {
		return configError(diag.CodeProfile, fmt.Sprintf("cannot load AWS profile %q (%s): %v", profile, source, err), "", err)
	}
	return configError(diag.CodeConfig, fmt.Sprintf("cannot load the AWS configuration: %v", err), "", err)
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

package dynamo

// ConfigProblem names what was wrong with the connection settings, so the
// command line can give each its own error code.
type ConfigProblem string

// Configuration problems Connect reports.
const (
	// ProblemEndpoint: the endpoint URL (--endpoint-url,
	// AWS_ENDPOINT_URL_DYNAMODB, AWS_ENDPOINT_URL or the profile's
	// endpoint_url) is not an http(s) URL with a host.
	ProblemEndpoint ConfigProblem = "endpoint"
	// ProblemRegion: no region is configured and no endpoint URL either.
	ProblemRegion ConfigProblem = "region"
	// ProblemProfile: the named profile does not exist or cannot be loaded.
	ProblemProfile ConfigProblem = "profile"
	// ProblemConfig: the shared config or credentials files cannot be read.
	ProblemConfig ConfigProblem = "config"
)

// ConfigError is a connection setting Connect cannot use. Msg names the
// setting and where it came from (flag or environment variable).
type ConfigError struct {
	Problem ConfigProblem
	Msg     string
	Hint    string
	Err     error
}

func (e *ConfigError) Error() string { return e.Msg }

func (e *ConfigError) Unwrap() error { return e.Err }

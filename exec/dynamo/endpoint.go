package dynamo

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// endpointSetting is a configured endpoint URL and where it came from, so
// a bad value can be blamed on the right flag or variable.
type endpointSetting struct {
	url    string
	source string // "--endpoint-url", "AWS_ENDPOINT_URL_DYNAMODB", …
}

// Environment variables that configure the endpoint, most specific first
// (the SDK's order).
var endpointVariables = []string{"AWS_ENDPOINT_URL_DYNAMODB", "AWS_ENDPOINT_URL"}

// configuredEndpoint is the endpoint URL requests will go to when one is
// configured: fromFlag (--endpoint-url), else what the SDK resolves from
// the environment and the shared config (AWS_ENDPOINT_URL_DYNAMODB,
// AWS_ENDPOINT_URL, endpoint_url, honouring
// AWS_IGNORE_CONFIGURED_ENDPOINT_URLS). Building a client sends nothing; it
// is the only way to ask the SDK which one wins.
func configuredEndpoint(fromFlag string, cfg aws.Config) endpointSetting {
	if fromFlag != "" {
		return endpointSetting{url: fromFlag, source: "--endpoint-url"}
	}
	base := dynamodb.NewFromConfig(cfg).Options().BaseEndpoint
	if base == nil || *base == "" {
		return endpointSetting{}
	}
	for _, name := range endpointVariables {
		if v, ok := os.LookupEnv(name); ok && v == *base {
			return endpointSetting{url: v, source: name}
		}
	}
	return endpointSetting{url: *base, source: "the endpoint_url of the AWS config profile"}
}

// parse checks that the endpoint is an http or https URL with a host.
func (e endpointSetting) parse() (*url.URL, error) {
	u, err := url.Parse(e.url)
	if err == nil && u.Scheme != "" && u.Host != "" {
		switch strings.ToLower(u.Scheme) {
		case "http", "https":
		default:
			return nil, e.invalid(fmt.Sprintf("%s %q uses the scheme %s: DynamoDB endpoints are http:// or https:// URLs", e.source, e.url, u.Scheme), "")
		}
		if p := u.Port(); p != "" {
			if n, err := strconv.Atoi(p); err != nil || n < 1 || n > 65535 {
				return nil, e.invalid(fmt.Sprintf("%s %q has port %s; a port is a number from 1 to 65535", e.source, e.url, p), "")
			}
		}
		return u, nil
	}
	hint := ""
	if !strings.Contains(e.url, "://") && e.url != "" {
		hint = "did you mean http://" + e.url + "?"
	}
	return nil, e.invalid(fmt.Sprintf("%s %q is not a URL like http://localhost:8000", e.source, e.url), hint)
}

func (e endpointSetting) invalid(msg, hint string) error {
	if hint == "" {
		hint = "give the scheme, host and port, e.g. --endpoint-url http://localhost:8000"
		if e.source != "--endpoint-url" {
			hint = "fix " + e.source + " (e.g. http://localhost:8000), or unset it"
		}
	}
	return configError(diag.CodeEndpoint, msg, hint, nil)
}

// origin is an endpoint's scheme://host[:port], the way messages name it.
func origin(u *url.URL) string { return u.Scheme + "://" + u.Host }

func isLoopback(host string) bool {
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

package main

import (
	"context"
	"fmt"
	"net/url"
	"os"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/session"
	"github.com/ddbsql/ddbsql/repl"
)

// runREPL runs the interactive REPL; run calls it only when stdin and
// stdout are terminals and no -e/-f script was given.
func runREPL(ctx context.Context, io streams, sess *session.Session) int {
	in, inOK := io.in.(*os.File)
	out, outOK := io.out.(*os.File)
	if !inOK || !outOK {
		fmt.Fprintln(io.err, "error: the interactive REPL needs a terminal on stdin and stdout")
		return exitUsage
	}
	pager, set := os.LookupEnv("PAGER")
	if !set {
		pager = repl.DefaultPager
	}
	return repl.Run(ctx, repl.Config{
		Session:     sess,
		Label:       promptLabel(sess.Client),
		In:          in,
		Out:         out,
		Err:         io.err,
		Version:     version,
		HistoryPath: repl.HistoryPath(os.LookupEnv),
		Pager:       pager,
		PrintError:  printError,
	})
}

// labeled is a client that names its connection itself (an offline or demo
// backend says "demo").
type labeled interface{ Label() string }

// promptLabel names the connection in the prompt the way dynamo.Connect
// labels a Connection: the endpoint's host:port when an endpoint is set
// (flag or AWS config), else the region.
func promptLabel(c dynamo.Client) string {
	switch c := c.(type) {
	case labeled:
		return c.Label()
	case *dynamodb.Client:
		o := c.Options()
		if o.BaseEndpoint != nil {
			if u, err := url.Parse(*o.BaseEndpoint); err == nil && u.Host != "" {
				return u.Host
			}
		}
		if o.Region != "" {
			return o.Region
		}
	}
	return "dynamodb"
}

package main

import (
	"context"
	"fmt"
	"net/url"
	"os"
	"time"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/exec/format"
	"github.com/ddbsql/ddbsql/exec/session"
	"github.com/ddbsql/ddbsql/repl"
)

// runREPL runs the interactive REPL; run calls it only when stdin and
// stdout are terminals and no -e/-f script was given.
func runREPL(ctx context.Context, st streams, sess *session.Session, cfg *config, output *format.Destination) int {
	in, inOK := st.in.(*os.File)
	out, outOK := st.out.(*os.File)
	if !inOK || !outOK {
		fmt.Fprintln(st.err, "error: the interactive REPL needs a terminal on stdin and stdout")
		return exitUsage
	}
	profile := cfg.profile
	for _, name := range []string{"AWS_PROFILE", "AWS_DEFAULT_PROFILE"} { // the SDK's order
		if profile == "" {
			profile = os.Getenv(name)
		}
	}
	history, err := repl.PrepareHistory(os.LookupEnv)
	if err != nil {
		fmt.Fprintf(st.err, "warning: %v\n", err)
	}
	if cfg.journal == "" {
		// The REPL journals every write by default: one file per session
		// in the state directory, beside the history.
		if j := repl.JournalPath(os.LookupEnv, time.Now()); j != "" {
			sess.SetJournal(j)
		}
	}
	return repl.Run(ctx, repl.Config{
		Session:     sess,
		Label:       promptLabel(sess.Client(), profile),
		In:          in,
		Out:         out,
		Err:         st.err,
		Version:     version,
		HistoryPath: history,
		Pager:       replPager(cfg),
		NoColor:     noColor(cfg),
		PrintError:  printError,
		Output:      output,
	})
}

// replPager is the settings file's pager, else $PAGER, else less: the file
// is ddbsql's own, as psql's PSQL_PAGER is preferred to PAGER. An empty
// value never pages.
func replPager(cfg *config) string {
	if cfg.pager != nil {
		return *cfg.pager
	}
	if pager, set := os.LookupEnv("PAGER"); set {
		return pager
	}
	return repl.DefaultPager
}

// noColor reports whether colours are off: --no-color (or no-color in the
// settings file), or NO_COLOR set to anything but the empty string
// (https://no-color.org).
func noColor(cfg *config) bool {
	return cfg.noColor || os.Getenv("NO_COLOR") != ""
}

// labeled is a client that names its connection itself (an offline or demo
// backend says "demo").
type labeled interface{ Label() string }

// promptLabel names the connection in the prompt, as psql shows the
// database: where the statements go, then "@" and the region.
//
//	demo                        --demo (--data alone: offline)
//	127.0.0.1:8000@us-east-1    an endpoint (flag or AWS config): its host:port
//	prod@eu-west-1              a named profile (--profile, AWS_PROFILE)
//	eu-west-1                   neither: the default credential chain
func promptLabel(c dynamo.Client, profile string) string {
	switch c := c.(type) {
	case labeled:
		return c.Label()
	case *dynamodb.Client:
		o := c.Options()
		where := profile
		if o.BaseEndpoint != nil {
			if u, err := url.Parse(*o.BaseEndpoint); err == nil && u.Host != "" {
				where = u.Host
			}
		}
		switch {
		case where != "" && o.Region != "":
			return where + "@" + o.Region
		case where != "":
			return where
		case o.Region != "":
			return o.Region
		}
	}
	return "dynamodb"
}

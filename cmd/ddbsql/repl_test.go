package main

import (
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb"

	"github.com/ddbsql/ddbsql/exec/dynamo"
)

type namedClient struct{ dynamo.Client }

func (namedClient) Label() string { return "demo" }

func TestPromptLabel(t *testing.T) {
	cases := []struct {
		client  dynamo.Client
		profile string
		want    string
	}{
		{dynamodb.New(dynamodb.Options{Region: "eu-west-1"}), "", "eu-west-1"},
		{dynamodb.New(dynamodb.Options{Region: "eu-west-1"}), "prod", "prod@eu-west-1"},
		// An endpoint says more than the profile: it is where statements go.
		{dynamodb.New(dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String("http://127.0.0.1:8000")}), "prod", "127.0.0.1:8000@us-east-1"},
		{dynamodb.New(dynamodb.Options{BaseEndpoint: aws.String("http://localhost:8000")}), "", "localhost:8000"},
		{dynamodb.New(dynamodb.Options{}), "dev", "dev"},
		{namedClient{}, "prod", "demo"},
		{nil, "", "dynamodb"},
	}
	for _, c := range cases {
		if got := promptLabel(c.client, c.profile); got != c.want {
			t.Errorf("promptLabel(profile %q) = %q, want %q", c.profile, got, c.want)
		}
	}
}

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
		client dynamo.Client
		want   string
	}{
		{dynamodb.New(dynamodb.Options{Region: "eu-west-1"}), "eu-west-1"},
		{dynamodb.New(dynamodb.Options{Region: "us-east-1", BaseEndpoint: aws.String("http://localhost:8000")}), "localhost:8000"},
		{namedClient{}, "demo"},
		{nil, "dynamodb"},
	}
	for _, c := range cases {
		if got := promptLabel(c.client); got != c.want {
			t.Errorf("promptLabel = %q, want %q", got, c.want)
		}
	}
}

// Package dynamo is exec's boundary with DynamoDB: the narrow Client
// interface every backend implements (the AWS SDK client, the in-process
// offline backend, test doubles), client construction from flags and the AWS
// config chain, the Catalog built from DescribeTable, and DESCRIBE's table
// settings (settings.go: a setting whose call the endpoint does not answer
// is unknown, not an error).
//
// Phase: exec. Invariants: nothing outside this package and the backends
// calls the SDK's network methods; every read request asks for
// ReturnConsumedCapacity=INDEXES so statements can report what they cost.
// No request a Connect client sends can wait forever: each attempt is
// bounded (bounds.go) whatever the caller's context, and an attempt that
// reached its bound is retried; middlewares record what each call's
// attempts got (an answer or none, and where they were sent) for the
// statement's Watch in the context.
package dynamo

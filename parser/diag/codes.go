package diag

// Code names the kind of a failure. Codes are stable: tests, goldens and
// callers match on them, so a code's spelling never changes once released.
// Every code is declared here and only here; TestCodes lists them.
type Code string

// Codes of the parse phase.
const (
	// CodeSyntax: the text is not valid ddbsql SQL.
	CodeSyntax Code = "syntax"
	// CodeUnquotedHash: a '#' (or "--") inside a name or value would start
	// a MySQL comment; the name must be quoted.
	CodeUnquotedHash Code = "unquoted_hash"
	// CodeUnsupported: valid SQL that ddbsql does not run (parser), or a
	// statement shape the planner cannot compile.
	CodeUnsupported Code = "unsupported"
	// CodeEmpty: no statement where one is required.
	CodeEmpty Code = "empty"
)

// Codes of the config phase (flags, settings file).
const (
	// CodeBadFlag: a flag's value (on the command line or in the settings
	// file) is malformed.
	CodeBadFlag Code = "bad_flag"
)

// Codes of the command phase (REPL and script meta-commands).
const (
	// CodeUnknownCommand: a line is neither a ddbsql meta-command nor a
	// statement (another tool's command, such as sqlite3's .tables).
	CodeUnknownCommand Code = "unknown_command"
)

// Codes of the plan phase.
const (
	// CodeUnknownTable: the statement names a table the catalog lacks.
	CodeUnknownTable Code = "unknown_table"
	// CodeUnknownIndex: USE/FORCE INDEX or table.index names no index.
	CodeUnknownIndex Code = "unknown_index"
	// CodeUnknownColumn: a name is no column of the tables read.
	CodeUnknownColumn Code = "unknown_column"
	// CodeKeyType: a key is compared with (planner) or holds (loading) a
	// value of another type than the key schema's.
	CodeKeyType Code = "key_type"
	// CodeScanNotAllowed: the statement needs a Scan and Scans are not
	// allowed (--allow-scan).
	CodeScanNotAllowed Code = "scan_not_allowed"
	// CodeConsistentIndex: a strongly consistent read of a global
	// secondary index, which DynamoDB refuses.
	CodeConsistentIndex Code = "consistent_gsi"
	// CodeInvalid: a clause is malformed in a way SQL grammar allows
	// (an ordinal out of range, DISTINCT where it has no meaning).
	CodeInvalid Code = "invalid"
	// CodeAggregate: an aggregate where none may be, or GROUP BY misused.
	CodeAggregate Code = "aggregate"
	// CodeUnknownFunction: no function by that name.
	CodeUnknownFunction Code = "unknown_function"
	// CodeArguments: a function call has the wrong number or kind of
	// arguments, found while planning.
	CodeArguments Code = "arguments"
	// CodeAmbiguous: an unqualified name is a column of several tables.
	CodeAmbiguous Code = "ambiguous_column"
	// CodeSelfJoin: a join of a table with itself.
	CodeSelfJoin Code = "self_join"
	// CodeJoin: a join ddbsql cannot run by key.
	CodeJoin Code = "join"
	// CodeLimit: LIMIT or OFFSET is not a non-negative whole number.
	CodeLimit Code = "limit"
	// CodeStrict: --strict refuses a statement that is not one Query or
	// GetItem.
	CodeStrict Code = "strict"
	// CodeBudget: the statement would consume (plan) or has consumed
	// (execute) more than --max-rcu.
	CodeBudget Code = "budget"
	// CodeSparseIndexHint: USE/FORCE INDEX names a sparse index that may
	// not hold every item the statement matches.
	CodeSparseIndexHint Code = "sparse_index_hint"
	// CodeKeyChange: an UPDATE assigns a primary-key attribute, which
	// DynamoDB cannot change in place (DELETE and INSERT instead).
	CodeKeyChange Code = "key_change"
	// CodeReadOnly: a write statement under --read-only.
	CodeReadOnly Code = "read_only"
)

// Codes of the connect and execute phases.
const (
	// CodeCancelled: the statement was cancelled (Ctrl-C).
	CodeCancelled Code = "cancelled"
	// CodeTimeout: the statement ran past --timeout.
	CodeTimeout Code = "timeout"
	// CodeUnreachable: DynamoDB could not be reached or did not answer.
	CodeUnreachable Code = "unreachable"
	// CodeCredentials: no AWS credentials, or DynamoDB refused them.
	CodeCredentials Code = "credentials"
	// CodeEndpoint: the endpoint URL is not an http(s) URL with a host.
	CodeEndpoint Code = "endpoint"
	// CodeRegion: no region is configured.
	CodeRegion Code = "region"
	// CodeProfile: the AWS profile does not exist or cannot be loaded.
	CodeProfile Code = "profile"
	// CodeConfig: the shared AWS config files cannot be read.
	CodeConfig Code = "config"
	// CodeAccessDenied: IAM does not allow the DynamoDB call.
	CodeAccessDenied Code = "access_denied"
	// CodeNotFound: DynamoDB reports that a table or index does not exist.
	CodeNotFound Code = "not_found"
	// CodeValidation: DynamoDB rejected a request as invalid.
	CodeValidation Code = "validation"
	// CodeThrottled: DynamoDB throttled the reads and retries ran out.
	CodeThrottled Code = "throttled"
	// CodeDynamo: any other failure of a DynamoDB call.
	CodeDynamo Code = "dynamodb"
	// CodeDecode: DynamoDB returned an item ddbsql cannot read.
	CodeDecode Code = "decode"
	// CodeEval: evaluating an expression on a row failed; the cause is
	// the evaluate-phase error.
	CodeEval Code = "eval"
	// CodeMemoryLimit: an operator needs more memory than --memory-limit
	// allows even after spilling (one group, row or key larger than the
	// limit, or a spill file cannot be written).
	CodeMemoryLimit Code = "memory_limit"
	// CodeSpill: a spill file under --temp-dir cannot be created, written
	// or read back.
	CodeSpill Code = "spill"
	// CodeInternal: a bug in ddbsql (a recovered panic, a node that must
	// not reach the evaluator).
	CodeInternal Code = "internal"
	// CodeItemExists: INSERT found an item with the same primary key.
	CodeItemExists Code = "item_exists"
	// CodePartialWrite: a write statement of several items failed after
	// writing some of them; the error lists which were and were not.
	CodePartialWrite Code = "partial_write"
)

// Codes of the evaluate phase.
const (
	// CodeOverflow: a number result does not fit DynamoDB's N type.
	CodeOverflow Code = "overflow"
	// CodeType: an operand has a type the operation does not accept.
	CodeType Code = "type"
	// CodeArgument: an argument is invalid at evaluation (arity, type
	// name, missing item).
	CodeArgument Code = "argument"
	// CodeSetIndex: a list index applied to a set (sets are unordered).
	CodeSetIndex Code = "set_index"
	// CodeSubqueryRows: a scalar subquery returned more than one row.
	CodeSubqueryRows Code = "subquery_rows"
)

// Codes of the load phase (offline data: --data, --demo).
const (
	// CodeUnknownFormat: not a format the loader reads.
	CodeUnknownFormat Code = "unknown_format"
	// CodeIO: the file cannot be opened or read.
	CodeIO Code = "io"
	// CodeTruncated: gzip data ends early or is corrupt.
	CodeTruncated Code = "truncated"
	// CodeBadJSON: a line or value is not valid JSON.
	CodeBadJSON Code = "bad_json"
	// CodeBadItem: valid JSON that is not a valid DynamoDB item.
	CodeBadItem Code = "bad_item"
	// CodeNoKeySchema: the source has no key schema and --key was not
	// given.
	CodeNoKeySchema Code = "no_key_schema"
	// CodeBadKeyFlag: --key is malformed (on the command line, or the
	// Source.Keys given to the loader).
	CodeBadKeyFlag Code = "bad_key_flag"
	// CodeKeyMismatch: --key disagrees with the source's own key schema.
	CodeKeyMismatch Code = "key_mismatch"
	// CodeMissingKey: an item lacks a key attribute.
	CodeMissingKey Code = "missing_key"
	// CodeDuplicateKey: two items share a primary key.
	CodeDuplicateKey Code = "duplicate_key"
	// CodeManifest: an export's manifest is invalid or disagrees with its
	// data.
	CodeManifest Code = "manifest"
	// CodeBadModel: a NoSQL Workbench model is invalid.
	CodeBadModel Code = "bad_model"
	// CodeTableExists: the table name is already taken.
	CodeTableExists Code = "table_exists"
	// CodeBadName: the table name is not valid in DynamoDB.
	CodeBadName Code = "bad_table_name"
	// CodeExportChain: incremental exports that do not follow their full
	// export (a gap, an overlap, another table, no full export).
	CodeExportChain Code = "export_chain"
	// CodeAsOf: --as-of names a time the exports cannot show.
	CodeAsOf Code = "as_of"
)

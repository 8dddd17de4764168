package ddblimits

// Requests. Source: "Service, account, and table quotas in Amazon
// DynamoDB" (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html),
// and each operation's page in the API reference
// (https://docs.aws.amazon.com/amazondynamodb/latest/APIReference/).
const (
	// BatchGetKeys is the most keys one BatchGetItem request may ask for,
	// across all its tables (API_BatchGetItem: up to 100 items).
	BatchGetKeys = 100
	// BatchGetResponseBytes is the most data one BatchGetItem response
	// returns; keys past it come back as UnprocessedKeys
	// (API_BatchGetItem: up to 16 MB of data).
	BatchGetResponseBytes = 16 * 1024 * 1024
	// BatchWriteItems is the most put and delete requests one
	// BatchWriteItem call may carry (API_BatchWriteItem: up to 25).
	BatchWriteItems = 25
	// PageBytes is the most data one Query or Scan page reads, counted
	// before any FilterExpression (ServiceQuotas, Query and Scan: the
	// result set is limited to 1 MB per call).
	PageBytes = 1024 * 1024
	// ScanSegments is the most a parallel Scan's TotalSegments may be
	// (API_Scan, TotalSegments: 1 to 1,000,000).
	ScanSegments = 1_000_000
	// ListTablesLimit is the most table names one ListTables call returns
	// and the largest Limit it accepts (API_ListTables, Limit: 1 to 100).
	ListTablesLimit = 100
)

// Items and keys. Source: ServiceQuotas, "Items" and "Attributes"
// (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html).
const (
	// ItemBytes is the largest item, attribute names and values together
	// (400 KB).
	ItemBytes = 400 * 1024
	// PartitionKeyBytes is the longest partition key value (S or B):
	// 1 to 2048 bytes.
	PartitionKeyBytes = 2048
	// SortKeyBytes is the longest sort key value (S or B): 1 to 1024
	// bytes.
	SortKeyBytes = 1024
)

// Numbers. Source: "Supported data types and naming rules in Amazon
// DynamoDB", Number (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/HowItWorks.NamingRulesDataTypes.html):
// numbers have up to 38 digits of precision, positive range
// 1E-130 to 9.9999999999999999999999999999999999999E+125, negative range
// the same with a minus sign.
const (
	// NumberDigits is the most significant digits a number may have.
	NumberDigits = 38
	// NumberMaxExponent is the largest adjusted exponent (the power of
	// ten of the first significant digit) of a nonzero number: 9.99…E+125.
	NumberMaxExponent = 125
	// NumberMinExponent is the smallest adjusted exponent of a nonzero
	// number: 1E-130.
	NumberMinExponent = -130
)

// Table and index names. Source: HowItWorks.NamingRulesDataTypes (3 to
// 255 characters of a-z, A-Z, 0-9, _, - and .).
const (
	TableNameMinLength = 3
	TableNameMaxLength = 255
)

// Expressions. Source: ServiceQuotas, "Expression parameters"
// (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/ServiceQuotas.html).
const (
	// ExpressionBytes is the longest expression string (4 KB).
	ExpressionBytes = 4096
	// ExpressionOperators is the most operators and functions one
	// expression string may use (300).
	ExpressionOperators = 300
	// InOperands is the most operands on the right of an IN (100).
	InOperands = 100
)

// Capacity units. Source: "DynamoDB read and write operations"
// (https://docs.aws.amazon.com/amazondynamodb/latest/developerguide/read-write-operations.html):
// reads are rounded up to the next 4 KB, writes to the next 1 KB.
const (
	// ReadUnitBytes is the item size one read unit covers: one strongly
	// consistent read, or two eventually consistent ones.
	ReadUnitBytes = 4096
	// WriteUnitBytes is the item size one write unit covers.
	WriteUnitBytes = 1024
)

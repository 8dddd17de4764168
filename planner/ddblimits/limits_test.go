package ddblimits

import "testing"

// TestLimitsAreDynamoDBs pins each constant to the value DynamoDB
// documents, written out here independently, so that an edit to a limit
// (which changes planning, billing and memdb's checks at once) is a
// deliberate one.
func TestLimitsAreDynamoDBs(t *testing.T) {
	for _, c := range []struct {
		name      string
		got, want int
	}{
		{"BatchGetKeys", BatchGetKeys, 100},
		{"BatchGetResponseBytes", BatchGetResponseBytes, 16_777_216},
		{"BatchWriteItems", BatchWriteItems, 25},
		{"PageBytes", PageBytes, 1_048_576},
		{"ScanSegments", ScanSegments, 1_000_000},
		{"ListTablesLimit", ListTablesLimit, 100},
		{"ItemBytes", ItemBytes, 409_600},
		{"PartitionKeyBytes", PartitionKeyBytes, 2048},
		{"SortKeyBytes", SortKeyBytes, 1024},
		{"NumberDigits", NumberDigits, 38},
		{"NumberMaxExponent", NumberMaxExponent, 125},
		{"NumberMinExponent", NumberMinExponent, -130},
		{"TableNameMinLength", TableNameMinLength, 3},
		{"TableNameMaxLength", TableNameMaxLength, 255},
		{"ExpressionBytes", ExpressionBytes, 4096},
		{"ExpressionOperators", ExpressionOperators, 300},
		{"InOperands", InOperands, 100},
		{"ReadUnitBytes", ReadUnitBytes, 4096},
		{"WriteUnitBytes", WriteUnitBytes, 1024},
	} {
		if c.got != c.want {
			t.Errorf("%s = %d, DynamoDB documents %d", c.name, c.got, c.want)
		}
	}
}

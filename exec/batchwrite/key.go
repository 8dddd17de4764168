package batchwrite

import (
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/planner/value"
)

// Item is one item to put, as the SDK sends it.
type Item = map[string]types.AttributeValue

// Key is an item's primary key: its key attributes only.
type Key map[string]types.AttributeValue

// keyOf takes the key attributes names out of item, and its identity: a
// string equal for two keys exactly when DynamoDB sees one key (numbers in
// canonical form, so 1.50 and 15E-1 are the same key).
func keyOf(names []string, item Item) (Key, string, error) {
	k := make(Key, len(names))
	var id []byte
	for _, n := range names {
		av, ok := item[n]
		if !ok || av == nil {
			return nil, "", fmt.Errorf("the item has no key attribute %s", n)
		}
		var tag byte
		var text string
		switch v := av.(type) {
		case *types.AttributeValueMemberS:
			tag, text = 'S', v.Value
		case *types.AttributeValueMemberN:
			c, err := value.CanonicalNumber(v.Value)
			if err != nil {
				return nil, "", fmt.Errorf("key %s: %v", n, err)
			}
			tag, text = 'N', c
		case *types.AttributeValueMemberB:
			tag, text = 'B', string(v.Value)
		default:
			return nil, "", fmt.Errorf("key %s is not a string, number or binary", n)
		}
		k[n] = av
		id = append(id, tag)
		id = binary.AppendUvarint(id, uint64(len(text)))
		id = append(id, text...)
	}
	return k, string(id), nil
}

// String renders the key for messages in the key order DynamoDB shows
// (names sorted: partition and sort key of one table always sort the same
// way): PK="a", SK=12, or a binary key as hex.
func (k Key) String() string {
	names := make([]string, 0, len(k))
	for n := range k {
		names = append(names, n)
	}
	slices.Sort(names)
	var b strings.Builder
	for i, n := range names {
		if i > 0 {
			b.WriteString(", ")
		}
		b.WriteString(n)
		b.WriteByte('=')
		switch v := k[n].(type) {
		case *types.AttributeValueMemberS:
			b.WriteString(strconv.Quote(v.Value))
		case *types.AttributeValueMemberN:
			b.WriteString(v.Value)
		case *types.AttributeValueMemberB:
			b.WriteString("0x" + hex.EncodeToString(v.Value))
		default:
			fmt.Fprintf(&b, "%T", v)
		}
	}
	return b.String()
}

// Identity returns item's key and a string that is equal for two items
// exactly when DynamoDB sees one key (what the writer tells duplicates
// by), or why item has no valid key.
func Identity(names []string, item Item) (Key, string, error) { return keyOf(names, item) }

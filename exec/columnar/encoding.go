package columnar

import (
	"github.com/apache/arrow-go/v18/arrow"

	"github.com/ddbsql/ddbsql/planner/value"
)

// Field metadata that tells how an Arrow column holds DynamoDB values.
const (
	metaKey        = "ddb"
	metaNumber     = "N"
	metaValue      = "value"
	metaStringType = "S"
)

// Encoding is how one column of a batch stores its values.
type Encoding uint8

// Encodings, see the package documentation.
const (
	EncString Encoding = iota
	EncInt64
	EncNumberText
	EncBool
	EncBinary
	EncValue
)

// fieldFor builds the Arrow field for a column name and encoding.
func fieldFor(name string, enc Encoding) arrow.Field {
	switch enc {
	case EncInt64:
		return arrow.Field{Name: name, Type: arrow.PrimitiveTypes.Int64, Nullable: true, Metadata: meta(metaNumber)}
	case EncNumberText:
		return arrow.Field{Name: name, Type: arrow.BinaryTypes.String, Nullable: true, Metadata: meta(metaNumber)}
	case EncBool:
		return arrow.Field{Name: name, Type: arrow.FixedWidthTypes.Boolean, Nullable: true}
	case EncBinary:
		return arrow.Field{Name: name, Type: arrow.BinaryTypes.Binary, Nullable: true}
	case EncValue:
		return arrow.Field{Name: name, Type: arrow.BinaryTypes.Binary, Nullable: true, Metadata: meta(metaValue)}
	}
	return arrow.Field{Name: name, Type: arrow.BinaryTypes.String, Nullable: true}
}

func meta(v string) arrow.Metadata { return arrow.NewMetadata([]string{metaKey}, []string{v}) }

// EncodingOf reads a field's encoding back.
func EncodingOf(f arrow.Field) Encoding {
	tag := ""
	if i := f.Metadata.FindKey(metaKey); i >= 0 {
		tag = f.Metadata.Values()[i]
	}
	switch f.Type.ID() {
	case arrow.INT64:
		return EncInt64
	case arrow.BOOL:
		return EncBool
	case arrow.STRING:
		if tag == metaNumber {
			return EncNumberText
		}
		return EncString
	case arrow.BINARY:
		if tag == metaValue {
			return EncValue
		}
		return EncBinary
	}
	return EncValue
}

// chooseEncoding picks the narrowest encoding that holds every value exactly.
func chooseEncoding(vals []value.Value) Encoding {
	kind := value.Missing
	allInt := true
	for _, v := range vals {
		k := v.Kind()
		if k == value.Missing {
			continue
		}
		if kind == value.Missing {
			kind = k
		} else if k != kind {
			return EncValue
		}
		if k == value.Number && allInt {
			if _, ok := v.Int64(); !ok {
				allInt = false
			}
		}
	}
	switch kind {
	case value.Missing, value.String:
		return EncString
	case value.Number:
		if allInt {
			return EncInt64
		}
		return EncNumberText
	case value.Bool:
		return EncBool
	case value.Binary:
		return EncBinary
	}
	return EncValue
}

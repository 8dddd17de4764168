package planner

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/planner/value"
)

// requestJSON renders an SDK request input (*dynamodb.QueryInput, …) as the
// JSON body DynamoDB receives: every field that is set, under its API name
// (the SDK names its fields exactly so), attribute values in DynamoDB JSON.
// It walks the struct by reflection rather than listing fields, so a field
// the planner starts setting shows up without a change here: EXPLAIN cannot
// omit a part of the request exec sends.
func requestJSON(in any) (json.RawMessage, error) {
	b, ok, err := appendInput(nil, reflect.ValueOf(in))
	if err != nil {
		return nil, err
	}
	if !ok {
		return json.RawMessage("{}"), nil
	}
	return b, nil
}

var attributeValueType = reflect.TypeOf((*types.AttributeValue)(nil)).Elem()

// appendInput appends v's JSON; ok is false for a field that is not set
// (nil pointer, map or slice; empty enum string; false or zero scalar),
// which the request leaves out.
func appendInput(dst []byte, v reflect.Value) ([]byte, bool, error) {
	if v.Kind() == reflect.Interface || v.Type() == attributeValueType {
		if v.IsNil() {
			return dst, false, nil
		}
		av, isAV := v.Interface().(types.AttributeValue)
		if !isAV {
			return nil, false, fmt.Errorf("cannot render a %s in a request", v.Elem().Type())
		}
		val, err := value.FromAttributeValue(av)
		if err != nil {
			return nil, false, err
		}
		return value.AppendDynamoJSON(dst, val), true, nil
	}
	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			return dst, false, nil
		}
		e := v.Elem()
		switch e.Kind() {
		case reflect.String:
			return appendString(dst, e.String()), true, nil // a set *string, even "", is sent
		case reflect.Bool:
			return strconv.AppendBool(dst, e.Bool()), true, nil
		case reflect.Int32, reflect.Int64:
			return strconv.AppendInt(dst, e.Int(), 10), true, nil
		}
		return appendInput(dst, e)
	case reflect.String:
		if v.String() == "" {
			return dst, false, nil
		}
		return appendString(dst, v.String()), true, nil
	case reflect.Bool:
		if !v.Bool() {
			return dst, false, nil
		}
		return append(dst, "true"...), true, nil
	case reflect.Int32, reflect.Int64:
		if v.Int() == 0 {
			return dst, false, nil
		}
		return strconv.AppendInt(dst, v.Int(), 10), true, nil
	case reflect.Map:
		if v.IsNil() {
			return dst, false, nil
		}
		return appendMap(dst, v)
	case reflect.Slice:
		if v.IsNil() {
			return dst, false, nil
		}
		dst = append(dst, '[')
		for i := 0; i < v.Len(); i++ {
			if i > 0 {
				dst = append(dst, ',')
			}
			var ok bool
			var err error
			if dst, ok, err = appendInput(dst, v.Index(i)); err != nil {
				return nil, false, err
			} else if !ok {
				dst = append(dst, "null"...)
			}
		}
		return append(dst, ']'), true, nil
	case reflect.Struct:
		return appendStruct(dst, v)
	}
	return nil, false, fmt.Errorf("cannot render a %s in a request", v.Type())
}

func appendStruct(dst []byte, v reflect.Value) ([]byte, bool, error) {
	dst = append(dst, '{')
	n := 0
	t := v.Type()
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		mark := len(dst)
		if n > 0 {
			dst = append(dst, ',')
		}
		dst = append(appendString(dst, f.Name), ':')
		var ok bool
		var err error
		if dst, ok, err = appendInput(dst, v.Field(i)); err != nil {
			return nil, false, err
		}
		if !ok {
			dst = dst[:mark]
			continue
		}
		n++
	}
	return append(dst, '}'), true, nil
}

// appendMap writes a map with string keys in placeholder order (#0, #1, …
// #10), which is also plain sorted order for attribute and table names.
func appendMap(dst []byte, v reflect.Value) ([]byte, bool, error) {
	keys := make(map[string]reflect.Value, v.Len())
	for it := v.MapRange(); it.Next(); {
		keys[it.Key().String()] = it.Value()
	}
	dst = append(dst, '{')
	for i, k := range sortedPlaceholders(keys) {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(appendString(dst, k), ':')
		var ok bool
		var err error
		if dst, ok, err = appendInput(dst, keys[k]); err != nil {
			return nil, false, err
		} else if !ok {
			dst = append(dst, "null"...)
		}
	}
	return append(dst, '}'), true, nil
}

// appendString writes s as a JSON string, leaving <, > and & as they are
// (conditions are easier to read with "a < :0" than with "\u003c").
func appendString(dst []byte, s string) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	_ = enc.Encode(s) // a string always encodes
	return append(dst, bytes.TrimSuffix(buf.Bytes(), []byte("\n"))...)
}

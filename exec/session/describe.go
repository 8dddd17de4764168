package session

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"

	"github.com/ddbsql/ddbsql/exec/dynamo"
	"github.com/ddbsql/ddbsql/planner"
)

// settingLines are DESCRIBE's settings as (setting, value) pairs, in the
// words the text formats print.
func settingLines(st dynamo.TableSettings) [][2]string {
	billing := st.Billing
	if billing == string(types.BillingModeProvisioned) {
		billing += fmt.Sprintf(" (%d RCU, %d WCU)", st.ReadCapacity, st.WriteCapacity)
	}
	return [][2]string{
		{"status", st.Status},
		{"billing_mode", billing},
		{"stream", settingText(st.Stream, func(d string) string { return " (" + d + ")" })},
		{"ttl", settingText(st.TTL, func(d string) string { return " on attribute " + d })},
		{"point_in_time_recovery", settingText(st.PITR, nil)},
	}
}

// settingText: "disabled", "enabled (NEW_IMAGE)", "enabling on attribute
// expiresAt", "unknown (the endpoint does not answer DescribeTimeToLive)".
func settingText(s dynamo.Setting, detail func(string) string) string {
	if !s.Known {
		return "unknown (" + s.Unknown + ")"
	}
	text := map[string]string{"ENABLED": "enabled", "DISABLED": "disabled", "ENABLING": "enabling", "DISABLING": "disabling"}[s.Status]
	if text == "" {
		text = s.Status
	}
	if s.Detail != "" && detail != nil {
		text += detail(s.Detail)
	}
	return text
}

// writeDescribeJSON prints DESCRIBE as one JSON document (one line with
// ndjson): keys as name, key type and attribute type in separate fields,
// the indexes, and the settings.
func (s *Session) writeDescribeJSON(t *planner.TableDef, td *types.TableDescription, st dynamo.TableSettings) error {
	type key struct {
		Name          string `json:"name"`
		Type          string `json:"type"`
		AttributeType string `json:"attribute_type"`
	}
	keysOf := func(pk planner.KeyAttr, sk *planner.KeyAttr) []key {
		ks := []key{{pk.Name, string(types.KeyTypeHash), pk.Type.String()}}
		if sk != nil {
			ks = append(ks, key{sk.Name, string(types.KeyTypeRange), sk.Type.String()})
		}
		return ks
	}
	type setting struct {
		Status    string `json:"status"`
		Attribute string `json:"attribute,omitempty"`
		ViewType  string `json:"view_type,omitempty"`
		Reason    string `json:"unknown_reason,omitempty"`
	}
	settingOf := func(v dynamo.Setting) setting {
		if !v.Known {
			return setting{Status: "unknown", Reason: v.Unknown}
		}
		return setting{Status: v.Status, Attribute: v.Detail}
	}
	type index struct {
		Name             string   `json:"name"`
		Type             string   `json:"type"`
		Keys             []key    `json:"keys"`
		Projection       string   `json:"projection"`
		NonKeyAttributes []string `json:"non_key_attributes,omitempty"`
		Status           string   `json:"status,omitempty"`
		ItemCount        int64    `json:"item_count"`
		SizeBytes        int64    `json:"size_bytes"`
	}
	gsiStatus := map[string]string{}
	for _, g := range td.GlobalSecondaryIndexes {
		gsiStatus[aws.ToString(g.IndexName)] = string(g.IndexStatus)
	}
	indexes := []index{}
	for _, ix := range t.Indexes {
		kind := "LSI"
		if ix.Global {
			kind = "GSI"
		}
		indexes = append(indexes, index{Name: ix.Name, Type: kind, Keys: keysOf(ix.PK, ix.SK), Projection: ix.Projection.Type,
			NonKeyAttributes: ix.Projection.NonKey, Status: gsiStatus[ix.Name], ItemCount: ix.ItemCount, SizeBytes: ix.SizeBytes})
	}
	stream := settingOf(st.Stream)
	stream.ViewType, stream.Attribute = stream.Attribute, ""
	doc := struct {
		Table         string  `json:"table"`
		Status        string  `json:"status"`
		BillingMode   string  `json:"billing_mode"`
		ReadCapacity  *int64  `json:"read_capacity,omitempty"`
		WriteCapacity *int64  `json:"write_capacity,omitempty"`
		Keys          []key   `json:"keys"`
		ItemCount     int64   `json:"item_count"`
		SizeBytes     int64   `json:"size_bytes"`
		Stream        setting `json:"stream"`
		TTL           setting `json:"ttl"`
		PITR          setting `json:"point_in_time_recovery"`
		Indexes       []index `json:"indexes"`
	}{Table: t.Name, Status: st.Status, BillingMode: st.Billing, Keys: keysOf(t.PK, t.SK), ItemCount: t.ItemCount, SizeBytes: t.SizeBytes,
		Stream: stream, TTL: settingOf(st.TTL), PITR: settingOf(st.PITR), Indexes: indexes}
	if st.Billing == string(types.BillingModeProvisioned) {
		doc.ReadCapacity, doc.WriteCapacity = &st.ReadCapacity, &st.WriteCapacity
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if s.cfg.Format != "ndjson" {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := s.out.Write(buf.Bytes())
	return err
}

package planner

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"strings"

	"github.com/ddbsql/ddbsql/planner/plural"
)

// WriteEstimate bounds what a write plan writes before it reads anything:
// at most Items items (those its read may return; VALUES rows exactly),
// each costing the table's average item size in 1 KB units. Known is false
// when DescribeTable has no figures (then only the dry run can tell).
type WriteEstimate struct {
	Items int64
	WCU   float64
	Known bool
	// AtLeast: the read's item count is a lower bound.
	AtLeast bool
}

// EstimateWrite is the plan's write estimate.
func EstimateWrite(wp *WritePlan) WriteEstimate {
	per := 1.0
	if wp.Table.ItemCount > 0 && wp.Table.SizeBytes > 0 {
		per = math.Ceil(float64(wp.Table.SizeBytes) / float64(wp.Table.ItemCount) / 1024)
	}
	if wp.Read == nil {
		n := int64(len(wp.Values))
		return WriteEstimate{Items: n, WCU: float64(n) * per, Known: true}
	}
	est := TotalEstimate(wp.Read)
	if est.IsUnknown() {
		return WriteEstimate{}
	}
	return WriteEstimate{Items: est.Items, WCU: float64(est.Items) * per, Known: true, AtLeast: est.AtLeast}
}

// WriteRequest describes the request each item of the plan is written with.
func WriteRequest(wp *WritePlan) string {
	switch wp.Kind {
	case WriteInsert:
		return fmt.Sprintf("PutItem %s per item, ConditionExpression attribute_not_exists(%s): an existing key is an error", wp.Table.Name, wp.Table.PK.Name)
	case WriteReplace:
		return fmt.Sprintf("BatchWriteItem %s, PutRequests of up to 25 items, unconditional (an existing item is replaced)", wp.Table.Name)
	case WriteUpdate:
		var set, remove []string
		for _, s := range wp.Sets {
			if s.Expr == nil {
				remove = append(remove, s.Path.Attr())
			} else {
				set = append(set, s.Path.Attr())
			}
		}
		var parts []string
		if len(set) > 0 {
			parts = append(parts, "SET "+strings.Join(uniq(set), ", "))
		}
		if len(remove) > 0 {
			parts = append(parts, "REMOVE "+strings.Join(uniq(remove), ", "))
		}
		return fmt.Sprintf("UpdateItem %s per item, UpdateExpression %s with the values computed from the item read", wp.Table.Name, strings.Join(parts, " "))
	}
	return fmt.Sprintf("DeleteItem %s per item", wp.Table.Name)
}

// WriteCondition describes the ConditionExpression of UPDATE and DELETE.
const WriteCondition = "every attribute of the item as read still holds its value, and each attribute the statement names that the item lacked is still absent (a changed item is read again and the WHERE re-checked)"

func uniq(list []string) []string {
	var out []string
	for _, s := range list {
		out = appendOnce(out, s)
	}
	return out
}

// ExplainWrite renders a write plan: the write, its requests and estimate,
// then the read that finds the items as EXPLAIN shows a SELECT.
func ExplainWrite(wp *WritePlan) string {
	var sb strings.Builder
	for _, n := range wp.Notes {
		sb.WriteString("note: " + n + "\n")
	}
	fmt.Fprintf(&sb, "%s %s\n", wp.Kind, wp.Table.Name)
	fmt.Fprintf(&sb, "   request: %s\n", WriteRequest(wp))
	if wp.Kind == WriteUpdate || wp.Kind == WriteDelete {
		fmt.Fprintf(&sb, "   condition: %s\n", WriteCondition)
	}
	for _, s := range wp.Sets {
		if s.Expr == nil {
			fmt.Fprintf(&sb, "   set: %s (removes the attribute)\n", s.Text)
		} else {
			fmt.Fprintf(&sb, "   set: %s\n", s.Text)
		}
	}
	if wp.Values != nil {
		fmt.Fprintf(&sb, "   values: %s of %s\n", plural.Of(int64(len(wp.Values)), "row"), strings.Join(wp.Columns, ", "))
	}
	est := EstimateWrite(wp)
	switch {
	case !est.Known:
		sb.WriteString("   estimate: unknown (DescribeTable has no figures for what the read returns); --dry-run counts the items and WCU\n")
	case wp.Read == nil:
		fmt.Fprintf(&sb, "   estimate: %s, about %s WCU\n", plural.Of(est.Items, "item"), FormatRCU(est.WCU))
	case est.AtLeast:
		fmt.Fprintf(&sb, "   estimate: at least %s, at least %s WCU (the items the read returns; --dry-run counts them)\n", plural.Of(est.Items, "item"), FormatRCU(est.WCU))
	default:
		fmt.Fprintf(&sb, "   estimate: about %s, about %s WCU (the items the read returns; --dry-run counts them)\n", plural.Of(est.Items, "item"), FormatRCU(est.WCU))
	}
	if wp.Read != nil {
		sb.WriteString("└─ read:\n")
		for _, line := range strings.Split(strings.TrimRight(Explain(wp.Read), "\n"), "\n") {
			sb.WriteString("   " + line + "\n")
		}
	}
	return sb.String()
}

// ExplainWriteJSON is EXPLAIN of a write as one JSON document: the write
// (kind, table, request and condition shapes, assignments, estimate,
// notes) and, under "read", the read's EXPLAIN document.
func ExplainWriteJSON(wp *WritePlan, opts JSONOptions) ([]byte, error) {
	type set struct {
		Assign string `json:"assign"`
		Remove bool   `json:"removes,omitempty"`
	}
	type estimate struct {
		Known   bool    `json:"known"`
		Items   int64   `json:"items"`
		WCU     float64 `json:"wcu"`
		AtLeast bool    `json:"at_least,omitempty"`
	}
	doc := struct {
		Write struct {
			Kind      string   `json:"kind"`
			Table     string   `json:"table"`
			Request   string   `json:"request"`
			Condition string   `json:"condition,omitempty"`
			Sets      []set    `json:"sets,omitempty"`
			Rows      int      `json:"rows,omitempty"`
			Columns   []string `json:"columns,omitempty"`
			Estimate  estimate `json:"estimate"`
			Notes     []string `json:"notes,omitempty"`
		} `json:"write"`
		Read json.RawMessage `json:"read,omitempty"`
	}{}
	w := &doc.Write
	w.Kind, w.Table, w.Request, w.Notes = wp.Kind.String(), wp.Table.Name, WriteRequest(wp), wp.Notes
	if wp.Kind == WriteUpdate || wp.Kind == WriteDelete {
		w.Condition = WriteCondition
	}
	for _, s := range wp.Sets {
		w.Sets = append(w.Sets, set{Assign: s.Text, Remove: s.Expr == nil})
	}
	if wp.Values != nil {
		w.Rows, w.Columns = len(wp.Values), wp.Columns
	}
	est := EstimateWrite(wp)
	w.Estimate = estimate{Known: est.Known, Items: est.Items, WCU: est.WCU, AtLeast: est.AtLeast}
	if wp.Read != nil {
		read, err := ExplainJSON(wp.Read, JSONOptions{Compact: true, Notes: opts.Notes})
		if err != nil {
			return nil, err
		}
		doc.Read = bytes.TrimSpace(read)
	}
	if opts.Compact {
		b, err := json.Marshal(doc)
		return append(b, '\n'), err
	}
	b, err := json.MarshalIndent(doc, "", "  ")
	return append(b, '\n'), err
}

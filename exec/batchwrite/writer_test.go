package batchwrite_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/service/dynamodb/types"
	"github.com/aws/smithy-go"

	"github.com/ddbsql/ddbsql/exec/batchwrite"
	"github.com/ddbsql/ddbsql/parser/diag"
)

func TestWritesEveryItem(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		f := &flaky{Client: b.client}
		p := &countingPacer{}
		w := batchwrite.New(f, b.table, batchwrite.Options{Keys: keys, Concurrency: 3, Pacer: p})
		var want []string
		for i := range 260 {
			pk := fmt.Sprintf("P%02d", i%7)
			if err := w.Put(ctx, item(pk, i, "v")); err != nil {
				t.Fatal(err)
			}
			want = append(want, rowOf(pk, i, "v"))
		}
		res, err := w.Flush(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if res.Puts != 260 || res.Written != 260 || len(res.Unwritten) != 0 || res.NotWritten != 0 {
			t.Fatalf("result %+v; want 260 puts written", res)
		}
		if res.Requests != 11 || f.maxItems != 25 {
			t.Fatalf("%d requests of at most %d items; want 11 of at most 25", res.Requests, f.maxItems)
		}
		// One WCU per item under 1 KB (dynalite and memdb both report it).
		if res.WCU != 260 || p.booked != res.WCU || p.waits != res.Requests {
			t.Fatalf("WCU %v, booked %v, pacer waits %d for %d requests", res.WCU, p.booked, p.waits, res.Requests)
		}
		if got := w.Snapshot(); got.Confirmed != 260 || got.Written != 260 {
			t.Fatalf("snapshot %+v", got)
		}
		assertRows(t, tableRows(t, b.client, b.table), want)
	})
}

func assertRows(t *testing.T, got, want []string) {
	t.Helper()
	wantSorted := append([]string(nil), want...)
	sortStrings(wantSorted)
	if strings.Join(got, "\n") != strings.Join(wantSorted, "\n") {
		t.Fatalf("table has %d items, want %d:\n got %.500q\nwant %.500q", len(got), len(wantSorted), got, wantSorted)
	}
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}

func TestUnprocessedItemsAreResent(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		// The first three requests leave every odd SK unprocessed; later
		// ones process everything.
		f := &flaky{Client: b.client, unprocessed: func(req int, it batchwrite.Item) bool {
			n := it["SK"].(*types.AttributeValueMemberN).Value
			return req <= 3 && strings.IndexByte("13579", n[len(n)-1]) >= 0
		}}
		w := batchwrite.New(f, b.table, batchwrite.Options{Keys: keys, Concurrency: 1})
		var want []string
		for i := range 60 {
			if err := w.Put(ctx, item("P", i, "x")); err != nil {
				t.Fatal(err)
			}
			want = append(want, rowOf("P", i, "x"))
		}
		res, err := w.Flush(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if res.Written != 60 || res.Unprocessed == 0 {
			t.Fatalf("result %+v: want 60 written after unprocessed items were re-sent", res)
		}
		assertRows(t, tableRows(t, b.client, b.table), want)
	})
}

func TestUnprocessedForeverNamesEveryKey(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		stuck := map[string]bool{"7": true, "31": true, "44": true}
		f := &flaky{Client: b.client, unprocessed: func(_ int, it batchwrite.Item) bool {
			return stuck[it["SK"].(*types.AttributeValueMemberN).Value]
		}}
		// Concurrency 1 and one request's worth of backoff: every request
		// of the first 25 items is answered before the second is sent.
		w := batchwrite.New(f, b.table, batchwrite.Options{Keys: keys, Concurrency: 1, MaxRounds: 4, MaxBackoff: 1})
		accepted := 0
		for i := range 50 {
			if err := w.Put(ctx, item("P", i, "x")); err != nil {
				if diag.CodeOf(err) != diag.CodeThrottled || !strings.Contains(err.Error(), "not writing to") {
					t.Fatalf("Put after the failure: %v", err)
				}
				break
			}
			accepted++
		}
		res, err := w.Flush(ctx)
		if err == nil {
			t.Fatal("Flush succeeded although three items were never processed")
		}
		var ue *batchwrite.UnwrittenError
		if !errors.As(err, &ue) || diag.CodeOf(err) != diag.CodeThrottled {
			t.Fatalf("error %v (code %q) is not a throttled UnwrittenError", err, diag.CodeOf(err))
		}
		// Every accepted put is either in the table or named unwritten,
		// never both; the stuck keys among them are named.
		rows := tableRows(t, b.client, b.table)
		inTable := map[string]bool{}
		for _, r := range rows {
			inTable[r[:strings.IndexByte(r, '=')]] = true
		}
		named := map[string]bool{}
		for _, k := range ue.Keys {
			sk := k["SK"].(*types.AttributeValueMemberN).Value
			named[sk] = true
			if inTable["P/"+sk] {
				t.Fatalf("%s is named unwritten but is in the table", k)
			}
		}
		for i := range accepted {
			sk := fmt.Sprint(i)
			if inTable["P/"+sk] == named[sk] {
				t.Fatalf("SK=%s: in the table %v, named unwritten %v", sk, inTable["P/"+sk], named[sk])
			}
			if stuck[sk] && !named[sk] {
				t.Fatalf("stuck key SK=%s is not named", sk)
			}
		}
		if res.Written != int64(len(rows)) || res.Written+res.NotWritten != int64(accepted) || keyList(res.Unwritten) != keyList(ue.Keys) {
			t.Fatalf("result %+v for %d accepted puts and %d items in the table", res, accepted, len(rows))
		}
		for _, s := range []string{fmt.Sprintf("%d of %d items written; %d not written", res.Written, accepted, len(ue.Keys)), `SK=7`, "unprocessed after 4 attempts"} {
			if !strings.Contains(err.Error(), s) {
				t.Errorf("error does not say %q: %v", s, err)
			}
		}
	})
}

func TestFailedRequestNamesItsKeysAndStops(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		f := &flaky{Client: b.client, fail: func(req int) error {
			if req == 3 {
				return &smithy.GenericAPIError{Code: "InternalServerError", Message: "boom"}
			}
			return nil
		}}
		w := batchwrite.New(f, b.table, batchwrite.Options{Keys: keys, Concurrency: 1})
		var puts int
		var putErr error
		for i := range 200 {
			if putErr = w.Put(ctx, item("P", i, "x")); putErr != nil {
				break
			}
			puts++
		}
		if putErr == nil {
			t.Fatal("Put went on accepting items after a request failed for good")
		}
		res, err := w.Flush(ctx)
		if err == nil {
			t.Fatal("Flush succeeded after a failed request")
		}
		rows := tableRows(t, b.client, b.table)
		if int64(len(rows)) != res.Written || res.Written+res.NotWritten != int64(puts) || res.Written != 50 {
			t.Fatalf("table has %d items; result says %d written, %d not, of %d puts (want 50 written)", len(rows), res.Written, res.NotWritten, puts)
		}
		inTable := map[string]bool{}
		for _, r := range rows {
			inTable[r[:strings.IndexByte(r, '=')]] = true
		}
		for _, k := range res.Unwritten {
			sk := k["SK"].(*types.AttributeValueMemberN).Value
			if inTable["P/"+sk] {
				t.Fatalf("key %s is reported unwritten but is in the table", k)
			}
		}
		if !strings.Contains(err.Error(), "boom") || !strings.Contains(err.Error(), "50 of ") {
			t.Fatalf("error: %v", err)
		}
	})
}

func TestSameKeyTwice(t *testing.T) {
	eachBackend(t, func(t *testing.T, b backend) {
		ctx := context.Background()
		w := batchwrite.New(b.client, b.table, batchwrite.Options{Keys: keys, Concurrency: 4})
		// Within one request (DynamoDB refuses duplicate keys in one
		// BatchWriteItem), across requests in flight at once, and with
		// the number written two ways (1.50 and 15E-1 are one key).
		puts := []batchwrite.Item{item("A", 1, "first"), item("A", 1, "second")}
		for round := range 4 {
			for i := range 30 {
				puts = append(puts, item("B", i, fmt.Sprintf("round %d", round)))
			}
		}
		n15 := item("C", 0, "one point five")
		n15["SK"] = &types.AttributeValueMemberN{Value: "1.50"}
		n15b := item("C", 0, "fifteen tenths")
		n15b["SK"] = &types.AttributeValueMemberN{Value: "15E-1"}
		puts = append(puts, n15, n15b)
		for _, it := range puts {
			if err := w.Put(ctx, it); err != nil {
				t.Fatal(err)
			}
		}
		res, err := w.Flush(ctx)
		if err != nil {
			t.Fatal(err)
		}
		want := []string{rowOf("A", 1, "second"), "C/1.5=fifteen tenths|12345678901234567890123456789012345.678"}
		for i := range 30 {
			want = append(want, rowOf("B", i, "round 3"))
		}
		if res.Written != int64(len(puts)) || res.Superseded == 0 {
			t.Fatalf("result %+v", res)
		}
		assertRows(t, tableRows(t, b.client, b.table), want)
	})
}

func TestRefusesWhatNoRequestCanCarry(t *testing.T) {
	ctx := context.Background()
	w := batchwrite.New(&flaky{}, "t", batchwrite.Options{Keys: keys})
	big := item("P", 1, strings.Repeat("x", 400*1024))
	noKey := item("P", 1, "x")
	delete(noKey, "SK")
	badKey := item("P", 1, "x")
	badKey["SK"] = &types.AttributeValueMemberBOOL{Value: true}
	for _, c := range []struct {
		it   batchwrite.Item
		code diag.Code
		says string
	}{
		{big, diag.CodeValidation, "at most 400 KB"},
		{noKey, diag.CodeMissingKey, "no key attribute SK"},
		{badKey, diag.CodeKeyType, "SK is not a string, number or binary"},
	} {
		err := w.Put(ctx, c.it)
		if diag.CodeOf(err) != c.code || !strings.Contains(err.Error(), c.says) {
			t.Errorf("Put: %v (code %q); want %s saying %q", err, diag.CodeOf(err), c.code, c.says)
		}
	}
	if res, err := w.Flush(ctx); err != nil || res.Requests != 0 || res.Puts != 0 {
		t.Fatalf("Flush after refused puts: %+v, %v", res, err)
	}
}

func TestCancelledReportsUnsentKeys(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	f := &flaky{Client: nil, fail: func(req int) error {
		cancel()
		return context.Canceled
	}}
	w := batchwrite.New(f, "t", batchwrite.Options{Keys: keys, Concurrency: 1})
	for i := range 30 {
		if err := w.Put(ctx, item("P", i, "x")); err != nil {
			break
		}
	}
	res, err := w.Flush(ctx)
	if diag.CodeOf(err) != diag.CodeCancelled || res.Written != 0 || int64(len(res.Unwritten)) != res.Puts || res.Puts == 0 {
		t.Fatalf("result %+v, error %v (code %q)", res, err, diag.CodeOf(err))
	}
}

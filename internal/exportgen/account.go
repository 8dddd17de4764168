package exportgen

import (
	"encoding/json"
	"fmt"
)

// account is one item of the chain's accounts table:
//
//	PK      S   ACC#<nnnn>
//	SK      S   A or B
//	status  S   active, suspended or closed
//	balance N   up to 2 decimals, may be negative
//	rev     N   1 on insert, +1 per modification
//	tags    SS  on about half the items
//	note    S   on about a third (a modification may add or drop it)
//	prefs   M   {lang S, alerts BOOL}
type account struct {
	u      int
	status string
	cents  int64
	rev    int
	tags   []string
	note   string
	lang   string
	alerts bool
}

var (
	accountStatuses = []string{"active", "suspended", "closed"}
	accountTags     = []string{"vip", "trial", "eu", "us", "beta"}
	accountNotes    = []string{"call first", "prefers email", "escalated \"twice\"", "moved"}
	accountLangs    = []string{"en", "ja", "de", "fr"}
)

func newAccount(r *rng, u int) *account {
	a := &account{u: u, rev: 1}
	a.status = accountStatuses[r.intn(len(accountStatuses))]
	a.cents = int64(r.intn(2_000_000)) - 200_000
	if r.intn(2) == 0 {
		a.tags = tagSet(r)
	}
	if r.intn(3) == 0 {
		a.note = accountNotes[r.intn(len(accountNotes))]
	}
	a.lang = accountLangs[r.intn(len(accountLangs))]
	a.alerts = r.intn(2) == 0
	return a
}

func tagSet(r *rng) []string {
	var out []string
	for _, t := range accountTags {
		if r.intn(3) == 0 {
			out = append(out, t)
		}
	}
	if len(out) == 0 {
		out = []string{accountTags[r.intn(len(accountTags))]}
	}
	return out
}

// modified is a copy with one to three attributes changed and rev + 1.
func (a *account) modified(r *rng) *account {
	b := *a
	b.rev++
	for n := 1 + r.intn(3); n > 0; n-- {
		switch r.intn(5) {
		case 0:
			b.status = accountStatuses[r.intn(len(accountStatuses))]
		case 1:
			b.cents += int64(r.intn(100_000)) - 50_000
		case 2:
			if b.tags == nil {
				b.tags = tagSet(r)
			} else {
				b.tags = nil
			}
		case 3:
			if b.note == "" {
				b.note = accountNotes[r.intn(len(accountNotes))]
			} else {
				b.note = ""
			}
		case 4:
			b.lang = accountLangs[r.intn(len(accountLangs))]
			b.alerts = !b.alerts
		}
	}
	return &b
}

// json is the item in DynamoDB JSON, attributes in name order.
func (a *account) json() string {
	item := map[string]any{
		"PK":      map[string]string{"S": pkOf(a.u)},
		"SK":      map[string]string{"S": chainSorts[a.u%2]},
		"status":  map[string]string{"S": a.status},
		"balance": map[string]string{"N": FormatCents(a.cents)},
		"rev":     map[string]string{"N": fmt.Sprint(a.rev)},
		"prefs": map[string]any{"M": map[string]any{
			"lang":   map[string]string{"S": a.lang},
			"alerts": map[string]bool{"BOOL": a.alerts},
		}},
	}
	if a.tags != nil {
		item["tags"] = map[string][]string{"SS": a.tags}
	}
	if a.note != "" {
		item["note"] = map[string]string{"S": a.note}
	}
	b, _ := json.Marshal(item) // map keys sorted: deterministic
	return string(b)
}

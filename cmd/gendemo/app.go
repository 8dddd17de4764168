package main

import (
	"fmt"
	"time"

	"github.com/ddbsql/ddbsql/planner/value"
)

// app: the seeds' single-table workspace/documents design. Workspaces,
// their documents and members share a partition (WS#<slug>); share links
// are their own item collection (DOC#<id> / META); GSI1 is overloaded and
// sparse: review documents under STATUS#REVIEW by date, workspaces under
// PLAN#<plan>; the membership edge is written both ways (adjacency list).

var workspaces = []struct {
	slug, name, plan, region string
	docs, members            int
}{
	{"acme", "Acme Corp", "team", "ap-northeast-1", 12, 4},
	{"globex", "Globex", "enterprise", "us-east-1", 40, 6},
	{"initech", "Initech", "team", "us-west-2", 60, 8},
	{"umbrella", "Umbrella", "free", "eu-west-1", 30, 3},
	{"hooli", "Hooli", "enterprise", "us-west-2", 50, 7},
	{"stark", "Stark Industries", "team", "us-east-1", 45, 5},
	{"wayne", "Wayne Enterprises", "free", "us-east-2", 35, 4},
	{"wonka", "Wonka Industries", "team", "eu-central-1", 28, 3},
}

var (
	docTopics = []string{
		"Q2 roadmap", "Onboarding guide", "Incident review", "API design", "Release notes",
		"Meeting notes", "Security policy", "Pricing proposal", "Hiring plan", "Architecture overview",
		"Customer interview", "Runbook", "Retrospective", "Budget", "Launch checklist",
		"議事録", "設計レビュー",
	}
	docTags  = []string{"engineering", "product", "design", "sales", "ops", "legal", "finance", "draft-ideas"}
	themes   = []string{"light", "dark", "system"}
	locales  = []string{"en-US", "ja-JP", "de-DE", "en-GB"}
	features = []string{"sso", "audit-log", "api-access", "custom-domain", "export"}
)

func appTable() *table {
	t := &table{
		Name:  "app",
		About: "Single-table workspaces, documents, members and share links; overloaded sparse GSI1",
		PK:    key{"PK", "S"}, SK: key{"SK", "S"},
		GSIs: []index{{Name: "GSI1", PK: key{"GSI1PK", "S"}, SK: key{"GSI1SK", "S"}, Projection: "ALL"}},
		LSIs: []index{{Name: "ByUpdated", PK: key{"PK", "S"}, SK: key{"updatedAt", "S"}, Projection: "INCLUDE", Include: []string{"title", "status"}}},
	}
	r := newRNG(1)
	ppl := people()
	docNo := 0
	for wi, w := range workspaces {
		wsKey := "WS#" + w.slug
		created := day(2025, 6, 1).Add(time.Duration(wi*17) * 24 * time.Hour)
		var members []person
		for k := 0; k < w.members; k++ {
			members = append(members, ppl[(wi*5+k*3)%len(ppl)])
		}
		t.Items = append(t.Items, workspaceItem(r, wi, wsKey, created, len(members)))
		for k, m := range members {
			role := roleFor(k)
			joined := iso(created.Add(time.Duration(k*9+r.intn(5)) * 24 * time.Hour))
			t.Items = append(t.Items,
				item(attrs{"PK": str(wsKey), "SK": str("MEMBER#" + m.id), "Type": str("Member"),
					"userId": str(m.id), "name": str(m.name()), "role": str(role), "joinedAt": str(joined)}),
				item(attrs{"PK": str("USER#" + m.id), "SK": str(wsKey), "Type": str("Membership"),
					"workspaceName": str(w.name), "role": str(role), "joinedAt": str(joined)}))
		}
		for d := 0; d < w.docs; d++ {
			docNo++
			doc, link := documentItems(r, docNo, wsKey, created, members)
			t.Items = append(t.Items, doc)
			if link != nil {
				t.Items = append(t.Items, *link)
			}
		}
	}
	return t
}

// roleFor is the role of a workspace's k-th member: one owner, one admin,
// then editors and viewers alternating.
func roleFor(k int) string {
	switch {
	case k == 0:
		return "owner"
	case k == 1:
		return "admin"
	case k%2 == 0:
		return "editor"
	}
	return "viewer"
}

func workspaceItem(r *rng, wi int, wsKey string, created time.Time, members int) value.Value {
	w := workspaces[wi]
	feats := []string{features[wi%len(features)]}
	if w.plan != "free" {
		feats = append(feats, features[(wi+2)%len(features)])
	}
	a := attrs{
		"PK": str(wsKey), "SK": str("META"), "Type": str("Workspace"),
		"name": str(w.name), "plan": str(w.plan), "region": str(w.region),
		"seats": intv(members * 5), "docCount": intv(w.docs), "createdAt": str(iso(created)),
		"settings": mapv(attrs{
			"theme": str(pick(r, themes)), "locale": str(locales[wi%len(locales)]),
			"retentionDays": intv([]int{30, 90, 365}[wi%3]), "features": strList(feats...),
		}),
		"GSI1PK": str("PLAN#" + w.plan), "GSI1SK": str(wsKey),
	}
	if w.plan == "enterprise" {
		a["tags"] = strSet("priority-support", "sla-99.9")
	}
	return item(a)
}

// documentItems is a document and, for some published ones, its share link.
func documentItems(r *rng, n int, wsKey string, wsCreated time.Time, members []person) (value.Value, *value.Value) {
	id := "DOC#" + pad(n, 4)
	created := wsCreated.Add(time.Duration(r.intn(200*24*60)) * time.Minute)
	updated := created.Add(time.Duration(r.intn(30*24*60)) * time.Minute)
	status := "archived"
	switch s := r.intn(100); {
	case s < 30:
		status = "draft"
	case s < 45:
		status = "review"
	case s < 88:
		status = "published"
	}
	owner := pick(r, members)
	words := r.between(120, 4800)
	title := fmt.Sprintf("%s (%s)", pick(r, docTopics), created.Format("Jan 2006"))
	a := attrs{
		"PK": str(wsKey), "SK": str(id), "Type": str("Document"),
		"title": str(title), "status": str(status), "owner": str(owner.id),
		"createdAt": str(iso(created)), "updatedAt": str(iso(updated)),
		"words": intv(words), "size": intv(words*6 + r.intn(400)), "version": intv(r.between(1, 12)),
		"tags": strList(pick(r, docTags), pick(r, docTags)),
		"stats": mapv(attrs{"views": intv(r.intn(900)), "comments": intv(r.intn(40)),
			"lastViewedAt": str(iso(updated.Add(time.Duration(r.intn(72)) * time.Hour)))}),
	}
	if status == "review" {
		// Sparse GSI1: only documents waiting for review carry its keys.
		a["GSI1PK"], a["GSI1SK"] = str("STATUS#REVIEW"), str(iso(updated))
		reviewers := []string{}
		for _, m := range members {
			if m.id != owner.id && len(reviewers) < 2 {
				reviewers = append(reviewers, m.id)
			}
		}
		if len(reviewers) > 0 {
			a["reviewers"] = strSet(reviewers...)
		}
	}
	if r.chance(10) {
		a["pinned"] = boolv(true)
	}
	if r.chance(15) {
		thumb := make([]byte, 8)
		for i := range thumb {
			thumb[i] = byte(r.intn(256))
		}
		a["thumbnail"] = bin(thumb)
	}
	doc := item(a)
	if status != "published" || n%3 == 0 { // two in three published documents are shared
		return doc, nil
	}
	link := attrs{
		"PK": str(id), "SK": str("META"), "Type": str("ShareLink"),
		"workspace": str(wsKey), "title": str(title), "token": str(r.hex(16)),
		"createdBy": str(owner.id), "views": intv(r.intn(5000)), "public": boolv(r.chance(60)),
	}
	if r.chance(30) {
		link["expiresAt"] = null() // a link that never expires
	} else {
		link["expiresAt"] = str(iso(updated.Add(90 * 24 * time.Hour)))
	}
	l := item(link)
	return doc, &l
}

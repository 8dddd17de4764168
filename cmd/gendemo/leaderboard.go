package main

import (
	"strings"
	"time"

	"github.com/ddbsql/ddbsql/planner/value"
)

// leaderboard: the seeds' game leaderboard. A player's profile and matches
// share a partition (PLAYER#<id>); the season GSI ranks players by a
// zero-padded RATING#nnnnn sort key; the handle GSI resolves a public
// handle to a player id (KEYS_ONLY).

const (
	lbPlayers       = 200
	lbCurrentSeason = "SEASON#2026-Q2"
	lbPrevSeason    = "SEASON#2026-Q1"
	lbInCurrent     = 160 // players p0001..p0160 play in the current season
)

var (
	lbAdjectives = []string{
		"swift", "silent", "brave", "lucky", "crimson", "frozen", "rapid", "clever", "golden", "hidden",
		"mighty", "noble", "shadow", "stormy", "wild", "cosmic", "electric", "iron", "lunar", "solar",
	}
	lbNouns     = []string{"fox", "owl", "tiger", "falcon", "otter", "wolf", "panda", "raven", "shark", "lynx"}
	lbCountries = []string{"JP", "US", "KR", "DE", "BR", "FR", "GB", "CA"}
	lbMaps      = []string{"harbor", "canyon", "citadel", "tundra", "jungle", "skyline"}
	lbBadges    = []string{"first-win", "streak-5", "streak-10", "top-100", "veteran", "sharpshooter"}
	lbInputs    = []string{"keyboard", "controller", "touch"}
)

// lbRating is player n's rating (n = 1..200): distinct values from 800 to
// 2999, so ratings below 1000 need the zero padding of RATING#00nnn.
func lbRating(n int) int { return 800 + ((n-1)*379)%2200 }

func leaderboardTable() *table {
	t := &table{
		Name:  "leaderboard",
		About: "Game leaderboard: player profiles and matches; season GSI by zero-padded rating, handle GSI",
		PK:    key{"partitionId", "S"}, SK: key{"rangeId", "S"},
		GSIs: []index{
			{Name: "season", PK: key{"gsiPartition", "S"}, SK: key{"gsiSort", "S"}, Projection: "ALL"},
			{Name: "handle", PK: key{"handle", "S"}, Projection: "KEYS_ONLY"},
		},
	}
	r := newRNG(2)
	for n := 1; n <= lbPlayers; n++ {
		id := "PLAYER#p" + pad(n, 4)
		matches := playerMatches(r, n, id)
		wins, losses := 0, 0
		var recent []string
		for _, m := range matches {
			switch m.Attr("result").Text() {
			case "win":
				wins++
			case "loss":
				losses++
			}
			recent = append(recent, m.Attr("map").Text())
		}
		t.Items = append(t.Items, playerItem(r, n, id, wins, losses, recent))
		t.Items = append(t.Items, matches...)
	}
	return t
}

func playerItem(r *rng, n int, id string, wins, losses int, recent []string) value.Value {
	adj, noun := lbAdjectives[(n-1)%len(lbAdjectives)], lbNouns[(n-1)/len(lbAdjectives)]
	rating := lbRating(n)
	season := lbCurrentSeason
	if n > lbInCurrent {
		season = lbPrevSeason
	}
	xp := value.Value(intv(rating*1375 + r.intn(100000)))
	if n == 7 {
		// The grinder: an experience total with DynamoDB's full 38 digits.
		xp = num("31415926535897932384626433832795028841")
	}
	a := attrs{
		"partitionId": str(id), "rangeId": str("PROFILE"), "Type": str("Player"),
		"handle": str(adj + "_" + noun), "displayName": str(title(adj) + " " + title(noun)),
		"rating": intv(rating), "country": str(lbCountries[(n*5)%len(lbCountries)]),
		"wins": intv(wins), "losses": intv(losses), "lifetimeXp": xp,
		"joinedAt": str(iso(day(2024, 1, 1).Add(time.Duration(n*2+r.intn(400)) * 24 * time.Hour))),
		"settings": mapv(attrs{"crossplay": boolv(r.chance(70)), "input": str(pick(r, lbInputs))}),
		// Season index keys: fixed-width rating so string order is rank order.
		"gsiPartition": str(season), "gsiSort": str("RATING#" + pad(rating, 5)),
	}
	if len(recent) > 0 {
		last := recent[max(0, len(recent)-3):]
		a["recentMaps"] = strList(last...)
	}
	if r.chance(40) {
		a["badges"] = strSet(pick(r, lbBadges), pick(r, lbBadges))
	}
	return item(a)
}

// playerMatches are a player's matches, oldest first.
func playerMatches(r *rng, n int, id string) []value.Value {
	count := r.intn(15)
	at := day(2026, 4, 1).Add(time.Duration(r.intn(24*60)) * time.Minute)
	out := make([]value.Value, 0, count)
	for k := 0; k < count; k++ {
		at = at.Add(time.Duration(r.between(30, 3*24*60)) * time.Minute)
		result := []string{"win", "loss", "win", "loss", "draw"}[r.intn(5)]
		delta := 0
		switch result {
		case "win":
			delta = r.between(8, 24)
		case "loss":
			delta = -r.between(8, 24)
		}
		opp := 1 + (n-1+r.between(1, lbPlayers-1))%lbPlayers // never the player
		out = append(out, item(attrs{
			"partitionId": str(id), "rangeId": str("MATCH#" + iso(at)), "Type": str("Match"),
			"opponent": str("PLAYER#p" + pad(opp, 4)), "result": str(result),
			"ratingDelta": intv(delta), "durationSec": intv(r.between(300, 1800)),
			"map": str(pick(r, lbMaps)), "kills": intv(r.intn(30)), "deaths": intv(r.intn(25)),
		}))
	}
	return out
}

func title(s string) string { return strings.ToUpper(s[:1]) + s[1:] }

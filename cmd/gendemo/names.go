package main

import (
	"fmt"
	"strings"
)

// People shared by users, customers, orders and the app's members: person
// i (0-based) is user u_%03d(i+1).
var (
	firstNames = []string{
		"Alice", "Bob", "Carol", "Dave", "Erin", "Frank", "Grace", "Heidi", "Ivan", "Judy",
		"Kenji", "Laura", "Mateo", "Nina", "Oscar", "Priya", "Quinn", "Rupert", "Sakura", "Trent",
		"Ursula", "Victor", "Wendy", "Xavier", "Yuki", "Zoe", "Haruto", "Aoi", "Ren", "Mei",
		"Sota", "Hina", "Kaito", "Yui", "Liam", "Emma", "Noah", "Olivia", "Amara", "Lucas",
	}
	lastNames = []string{
		"Tanaka", "Suzuki", "Sato", "Takahashi", "Watanabe", "Smith", "Johnson", "García", "Müller", "Rossi",
		"Dubois", "Kim", "Park", "Silva", "Nguyen", "Novak", "Cohen", "Okafor", "Kowalski", "Lindqvist",
	}
	cities = []struct{ city, country, postal string }{
		{"Tokyo", "JP", "100-0001"}, {"Osaka", "JP", "530-0001"}, {"Seattle", "US", "98101"},
		{"Austin", "US", "73301"}, {"Berlin", "DE", "10115"}, {"Paris", "FR", "75001"},
		{"São Paulo", "BR", "01000-000"}, {"Seoul", "KR", "04524"}, {"London", "GB", "EC1A 1BB"},
		{"Toronto", "CA", "M5H 2N2"},
	}
)

// person is one of the shared people.
type person struct {
	id, first, last, email string
	city                   int // index into cities
}

func people() []person {
	out := make([]person, len(firstNames))
	for i, f := range firstNames {
		last := lastNames[(i*7)%len(lastNames)]
		out[i] = person{
			id:    "u_" + pad(i+1, 3),
			first: f,
			last:  last,
			email: strings.ToLower(ascii(f) + "." + ascii(last) + "@example.com"),
			city:  (i * 3) % len(cities),
		}
	}
	return out
}

func (p person) name() string { return p.first + " " + p.last }

// ascii folds the few accented letters the names use.
func ascii(s string) string {
	return strings.NewReplacer("ü", "u", "í", "i", "ã", "a", "é", "e").Replace(s)
}

// pad renders n with at least width digits.
func pad(n, width int) string { return fmt.Sprintf("%0*d", width, n) }

package main

import (
	"sync"
	"time"
)

// The shop: one set of people, products and orders, stored two ways. The
// users table is the seeds' single-table design (USER#<id> with PROFILE and
// ORDER#<ISO time> items, ORDER#<id>/META for lookups by order id,
// EMAIL#<email> uniqueness items); customers, orders and products are
// separate tables joined by attributes (orders.customer_id = customers.id,
// orders.sku = products.sku, customers.favorite_sku = products.sku).

// now is the demo's "today": order statuses follow from it.
var now = day(2026, 5, 15)

type product struct {
	sku, name, category string
	cents               int
}

var productNames = map[string][]string{
	"books": {"The Pragmatic Partition", "Designing Data-Intensive Apps", "Single-Table Patterns", "Go in Practice",
		"Keys and Indexes", "Eventually Consistent", "The Art of the Query", "Distributed Dreams"},
	"games": {"Dungeon Tactics", "Harbor Run", "Citadel Siege", "Space Traders", "Puzzle Garden",
		"Rally Legends", "Tiny Kingdoms", "Deep Sea Quest"},
	"tools": {"Cordless Drill", "Torque Wrench", "Laser Level", "Multimeter", "Soldering Station",
		"Tape Measure 8m", "Utility Knife", "Stud Finder"},
	"toys": {"Robot Kit", "Wooden Train Set", "Kite", "Marble Run", "Plush Otter", "Yo-Yo Pro",
		"Building Blocks 500", "Puzzle Cube"},
	"food": {"Matcha Powder", "Dark Chocolate 85%", "Ramen Sampler", "Maple Syrup", "Espresso Beans",
		"Sea Salt Caramels", "Yuzu Marmalade", "Trail Mix"},
}

var categories = []string{"books", "games", "tools", "toys", "food"}

var priceRange = map[string][2]int{
	"books": {1299, 5499}, "games": {1999, 6999}, "tools": {899, 18999}, "toys": {499, 7999}, "food": {350, 2999},
}

// products lists the catalogue: SKU-1001.. in category order.
var products = sync.OnceValue(func() []product {
	r := newRNG(3)
	var out []product
	for _, c := range categories {
		pr := priceRange[c]
		for _, name := range productNames[c] {
			cents := r.between(pr[0], pr[1])
			cents = cents - cents%10 + 9 // prices end in 9 cents, as shops like
			if r.chance(20) {
				cents = cents - cents%100 + 50 // some end in .50, stored as .5
			}
			out = append(out, product{sku: "SKU-" + pad(1001+len(out), 4), name: name, category: c, cents: cents})
		}
	}
	return out
})

type order struct {
	id, userID     string
	at             time.Time
	sku            string
	quantity       int
	unitCents      int
	shippingCents  int
	totalCents     int
	status, method string
	currency       string
	person         person
	product        product
}

// orders are everybody's orders: user n has ordersPerUser(n) of them,
// oldest first; ids o_0001.. in that order.
var orders = sync.OnceValue(func() []order {
	r := newRNG(4)
	ps := products()
	var out []order
	for i, p := range people() {
		// Order times walk back from "now", then go oldest first.
		times := make([]time.Time, ordersPerUser(i))
		at := now.Add(-time.Duration(r.between(2*60, 25*24*60)) * time.Minute)
		for k := len(times) - 1; k >= 0; k-- {
			times[k] = at
			at = at.Add(-time.Duration(r.between(3*24*60, 35*24*60)) * time.Minute)
		}
		for _, at := range times {
			prod := ps[r.intn(len(ps))]
			qty := r.between(1, 4)
			if prod.category == "food" {
				qty = r.between(2, 6)
			}
			sub := qty * prod.cents
			ship, method := 499, "standard"
			switch {
			case sub >= 5000:
				ship = 0
			case r.chance(25):
				ship, method = 1299, "express"
			}
			o := order{
				id: "o_" + pad(len(out)+1, 4), userID: p.id, at: at, sku: prod.sku, quantity: qty,
				unitCents: prod.cents, shippingCents: ship, totalCents: sub + ship, method: method,
				currency: currencyOf(cities[p.city].country), person: p, product: prod,
			}
			o.status = orderStatus(r, at)
			out = append(out, o)
		}
	}
	return out
})

// ordersPerUser is how many orders person i (0-based) placed: u_001 has
// six, some have none.
func ordersPerUser(i int) int {
	if i == 0 {
		return 6
	}
	return (i*7 + 3) % 10
}

func orderStatus(r *rng, at time.Time) string {
	age := now.Sub(at)
	switch {
	case r.chance(6):
		return "cancelled"
	case age > 21*24*time.Hour:
		return "delivered"
	case age > 5*24*time.Hour:
		return "shipped"
	case r.chance(50):
		return "paid"
	}
	return "placed"
}

func currencyOf(country string) string {
	switch country {
	case "DE", "FR":
		return "EUR"
	case "GB":
		return "GBP"
	}
	return "USD"
}

package main

import (
	"fmt"
	"time"
)

var plans = []string{"free", "pro", "team"}

func usersTable() *table {
	t := &table{
		Name:  "users",
		About: "Single-table users: profiles, orders by time, order lookups by id, e-mail uniqueness items",
		PK:    key{"PK", "S"}, SK: key{"SK", "S"},
	}
	byUser := map[string][]order{}
	for _, o := range orders() {
		byUser[o.userID] = append(byUser[o.userID], o)
	}
	for i, p := range people() {
		c := cities[p.city]
		created := day(2024, 3, 1).Add(time.Duration(i*11) * 24 * time.Hour)
		profile := attrs{
			"PK": str("USER#" + p.id), "SK": str("PROFILE"), "Type": str("User"),
			"name": str(p.name()), "email": str(p.email), "plan": str(plans[i%len(plans)]),
			"createdAt": str(iso(created)),
			"address":   mapv(attrs{"city": str(c.city), "country": str(c.country), "postalCode": str(c.postal)}),
		}
		if i%2 == 0 {
			profile["phone"] = str(fmt.Sprintf("+1-555-%04d", 100+i*37))
		}
		t.Items = append(t.Items, item(profile))
		for _, o := range byUser[p.id] {
			t.Items = append(t.Items, item(attrs{
				"PK": str("USER#" + p.id), "SK": str("ORDER#" + iso(o.at)), "Type": str("Order"),
				"orderId": str(o.id), "total": money(o.totalCents), "currency": str(o.currency),
				"status": str(o.status),
				"item": mapv(attrs{"sku": str(o.sku), "name": str(o.product.name),
					"quantity": intv(o.quantity), "unitPrice": money(o.unitCents)}),
				"shipping": mapv(attrs{"method": str(o.method), "cost": money(o.shippingCents),
					"address": mapv(attrs{"city": str(c.city), "country": str(c.country)})}),
			}))
		}
		t.Items = append(t.Items, item(attrs{
			"PK": str("EMAIL#" + p.email), "SK": str("EMAIL#" + p.email), "Type": str("Email"), "userId": str(p.id),
		}))
	}
	for _, o := range orders() {
		t.Items = append(t.Items, item(attrs{
			"PK": str("ORDER#" + o.id), "SK": str("META"), "Type": str("Order"),
			"userId": str(o.userID), "total": money(o.totalCents), "status": str(o.status), "orderedAt": str(iso(o.at)),
		}))
	}
	return t
}

var tiers = []string{"bronze", "silver", "gold", "platinum"}

func customersTable() *table {
	t := &table{
		Name:  "customers",
		About: "The shop's customers, partition key only (id = the users' id)",
		PK:    key{"id", "S"},
	}
	spent := map[string]int{}
	for _, o := range orders() {
		if o.status != "cancelled" {
			spent[o.userID] += o.totalCents
		}
	}
	r := newRNG(5)
	ps := products()
	for i, p := range people() {
		c := cities[p.city]
		tier := tiers[min(spent[p.id]/25000, len(tiers)-1)] // a tier per 250 spent
		status := "active"
		if i%13 == 12 {
			status = "suspended"
		}
		a := attrs{
			"id": str(p.id), "name": str(p.name()), "email": str(p.email),
			"country": str(c.country), "city": str(c.city), "tier": str(tier),
			"since":   str(isoDate(day(2024, 3, 1).Add(time.Duration(i*11) * 24 * time.Hour))),
			"balance": money(r.between(-5000, 20000)), "active": boolv(status == "active"), "status": str(status),
			"lifetime_spend": money(spent[p.id]),
		}
		if i%2 == 0 {
			a["phone"] = str(fmt.Sprintf("+1-555-%04d", 100+i*37))
		}
		if i%3 != 2 {
			a["favorite_sku"] = str(ps[(i*7)%len(ps)].sku)
		}
		t.Items = append(t.Items, item(a))
	}
	return t
}

func ordersTable() *table {
	t := &table{
		Name:  "orders",
		About: "The shop's orders by customer; customer_id joins customers.id, sku joins products.sku",
		PK:    key{"PK", "S"}, SK: key{"SK", "S"},
		GSIs: []index{{Name: "ByStatus", PK: key{"status", "S"}, SK: key{"ordered_at", "S"}, Projection: "ALL"}},
	}
	for _, o := range orders() {
		t.Items = append(t.Items, item(attrs{
			"PK": str("USER#" + o.userID), "SK": str("ORDER#" + iso(o.at)),
			"order_id": str(o.id), "customer_id": str(o.userID), "ordered_at": str(iso(o.at)),
			"sku": str(o.sku), "quantity": intv(o.quantity), "unit_price": money(o.unitCents),
			"shipping": money(o.shippingCents), "total": money(o.totalCents),
			"currency": str(o.currency), "status": str(o.status),
		}))
	}
	return t
}

var productTags = map[string][]string{
	"books": {"paperback", "hardcover", "bestseller", "ebook"},
	"games": {"board-game", "family", "strategy", "2-players"},
	"tools": {"cordless", "pro", "diy", "warranty-2y"},
	"toys":  {"ages-3+", "ages-8+", "wooden", "educational"},
	"food":  {"vegan", "gluten-free", "organic", "gift"},
}

func productsTable() *table {
	t := &table{
		Name:  "products",
		About: "The shop's catalogue; ByCategory GSI sorted by price",
		PK:    key{"sku", "S"},
		GSIs:  []index{{Name: "ByCategory", PK: key{"category", "S"}, SK: key{"price", "N"}, Projection: "ALL"}},
	}
	r := newRNG(6)
	for i, p := range products() {
		tags := productTags[p.category]
		stock := r.intn(300)
		if i%7 == 6 {
			stock = 0 // sold out
		}
		a := attrs{
			"sku": str(p.sku), "name": str(p.name), "category": str(p.category),
			"price": money(p.cents), "stock": intv(stock),
			"tags": strSet(pick(r, tags), pick(r, tags)),
			"dimensions": mapv(attrs{"widthCm": intv(r.between(5, 60)), "heightCm": intv(r.between(2, 40)),
				"weightKg": num(fmt.Sprintf("%d.%d", r.intn(8), r.intn(10)))}),
		}
		if r.chance(80) {
			a["rating"] = num(fmt.Sprintf("%d.%d", r.between(3, 4), r.intn(10)))
		}
		if i%9 == 8 {
			a["discontinued"] = boolv(true)
		}
		t.Items = append(t.Items, item(a))
	}
	return t
}

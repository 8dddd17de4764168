package main

import (
	"fmt"
	"time"
)

// metrics: numeric keys (device N, ts N epoch seconds), so the sort key
// orders numerically and device 2 comes before device 10.

var devices = []int{1, 2, 3, 10, 42}

const readingsPerDevice = 48 // every 30 minutes for a day

func metricsTable() *table {
	t := &table{
		Name:  "metrics",
		About: "Sensor readings with numeric keys (device, ts in epoch seconds)",
		PK:    key{"device", "N"}, SK: key{"ts", "N"},
	}
	r := newRNG(7)
	start := day(2026, 5, 1)
	for di, d := range devices {
		for k := 0; k < readingsPerDevice; k++ {
			at := start.Add(time.Duration(k*30) * time.Minute)
			a := attrs{
				"device": intv(d), "ts": intv(int(at.Unix())), "at": str(iso(at)),
				"humidity": intv(r.between(30, 90)), "battery": intv(100 - k - di*7),
			}
			if r.chance(5) {
				a["ok"], a["temp"] = boolv(false), null() // a failed reading
			} else {
				tenths := 50 + di*40 + r.between(-80, 120) // some below zero
				a["ok"], a["temp"] = boolv(true), num(fmt.Sprintf("%s%d.%d", sign(tenths), abs(tenths)/10, abs(tenths)%10))
			}
			t.Items = append(t.Items, item(a))
		}
	}
	return t
}

func sign(n int) string {
	if n < 0 {
		return "-"
	}
	return ""
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

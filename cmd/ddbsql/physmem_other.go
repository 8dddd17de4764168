//go:build !linux

package main

// physicalMemory is unknown here: the default limit uses fallbackMemory.
func physicalMemory() int64 { return 0 }

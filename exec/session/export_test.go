package session

import "time"

// SetProgressDelay shortens the wait before the progress line shows, for
// tests; it returns the function that restores it.
func SetProgressDelay(d time.Duration) (restore func()) {
	old := progressDelay
	progressDelay = d
	return func() { progressDelay = old }
}

//go:build !linux

package partition

// syncLayout makes the files written since the last unit durable before
// the state lists them: an fsync of each, then of the directory.
func syncLayout(dir string, paths []string) error {
	for _, p := range paths {
		if err := syncFile(p); err != nil {
			return err
		}
	}
	syncDir(dir)
	return nil
}

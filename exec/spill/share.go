package spill

// Shares give one operator its own figures while it draws on the
// statement's budget and spill directory: EXPLAIN ANALYZE shows, per
// operator, the files and bytes it spilled and the most it reserved.

// Share returns a budget that reserves from b (the statement's budget, or
// the budget b is a share of) and also counts what it reserved itself:
// Used and Peak are the share's own, Limit and Over the statement's. A
// nil b has nil shares (no limit).
func (b *Budget) Share() *Budget {
	if b == nil {
		return nil
	}
	root := b.root()
	return &Budget{parent: root, limit: root.limit}
}

func (b *Budget) root() *Budget {
	if b.parent != nil {
		return b.parent
	}
	return b
}

// Share returns a view of d that creates its files in d's directory (and
// counts them in d's figures) and also counts the files and bytes of its
// own runs: Files and Bytes are the share's own. Closing a share does
// nothing; the statement closes d. A nil d has nil shares (no spilling).
func (d *Dir) Share() *Dir {
	if d == nil {
		return nil
	}
	if d.parent != nil {
		d = d.parent
	}
	return &Dir{parent: d}
}

package offline

// plannedSource is an export or a file of items whose table is known
// (name, key schema, data files) before any item is read: what a streamed
// Scan reads again and again, and what a load reads once.
type plannedSource struct {
	src  Source
	kind kind
	spec *tableSpec
	// An export's manifests.
	dir         string
	summaryPath string
	sum         exportSummary
	files       []exportFile
	// chain, for a full export with incremental exports after it: they
	// are applied as it loads (overlay.go); such a table is never streamed.
	chain *chain
}

// run adds every item of ps to s, in file order, with the checks of the
// source's kind (an export's item counts).
func (l *loader) run(ps *plannedSource, s *sink) error {
	if ps.chain != nil {
		return l.runChain(ps, s)
	}
	if ps.kind == kindExport {
		return l.runExport(ps, s)
	}
	return l.runItems(ps, s)
}

// itemCount is the number of items the manifests say an export holds
// (the summary's itemCount, else the sum of its data files' counts), or
// nil when they do not say (or the source is a file of items).
func (ps *plannedSource) itemCount() *int64 {
	if ps.kind != kindExport || ps.chain != nil {
		return nil // a chain's count is known once its changes are applied
	}
	if ps.sum.ItemCount != nil {
		return ps.sum.ItemCount
	}
	var n int64
	for _, f := range ps.files {
		if f.ItemCount == nil {
			return nil
		}
		n += *f.ItemCount
	}
	return &n
}

package eval

// NumberSize is the stored size in bytes of a number given as text (see
// ItemSize), for sizing items that are not value.Values (exec/batchwrite
// sizes the SDK's attribute values it sends). Text that is no number has
// size 0.
func NumberSize(text string) int64 { return numberSize(text) }

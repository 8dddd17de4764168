package partition

import "strings"

// DefaultPartition is the directory value of a NULL, missing or empty
// partition value, as Hive names it.
const DefaultPartition = "__HIVE_DEFAULT_PARTITION__"

// escapePathName escapes a partition value (or column name) for a path
// component exactly as Hive's FileUtils.escapePathName does on Unix: the
// ASCII control characters 0x00–0x1F, 0x7F and " # % ' * / : = ? \ { [ ] ^
// become %XX (two upper-case hex digits); everything else, non-ASCII
// included, is kept as it is (UTF-8). An empty value is the default
// partition. Readers that understand Hive layouts (Hive, Spark, Trino,
// DuckDB) undo exactly this.
func escapePathName(s string) string {
	if s == "" {
		return DefaultPartition
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if needsEscaping(c) {
			const hex = "0123456789ABCDEF"
			b.WriteByte('%')
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&0xF])
			continue
		}
		b.WriteByte(c)
	}
	return b.String()
}

// needsEscaping is Hive's charToEscape set (without the characters it adds
// on Windows only). Bytes of multi-byte UTF-8 sequences are >= 0x80 and
// never escaped, as Hive never escapes a char >= 128.
func needsEscaping(c byte) bool {
	if c < 0x20 || c == 0x7F {
		return true
	}
	switch c {
	case '"', '#', '%', '\'', '*', '/', ':', '=', '?', '\\', '{', '[', ']', '^':
		return true
	}
	return false
}

package repl

import (
	"fmt"
	"strings"

	"github.com/ddbsql/ddbsql/parser/diag"
)

// foreignCommands are lines that other SQL shells understand, typed alone,
// with the ddbsql way to do the same. Without them `.tables` would start a
// statement and the REPL would wait for its ';' at a silent "...>".
var foreignCommands = map[string]string{
	".tables": `use \dt to list tables`,
	".schema": `use \d TABLE to describe a table (\dt lists them)`,
	".mode":   `use \format csv (or table, tsv, json, ndjson, markdown) to choose the output format`,
	".quit":   `use \q or Ctrl-D to quit`,
	".exit":   `use \q or Ctrl-D to quit`,
	".help":   `use \? to list the commands`,
	"help":    `use \? to list the commands`,
	"quit":    `use \q or Ctrl-D to quit`,
	"exit":    `use \q or Ctrl-D to quit`,
}

// foreignHint returns the hint for a line written for another shell, or "".
// Dot-commands may have arguments (.schema t, .mode csv); the words help,
// quit and exit count only alone (a ';' after them too).
func foreignHint(line string) string {
	s := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(line), ";"))
	word := strings.ToLower(s)
	if strings.HasPrefix(word, ".") {
		if i := strings.IndexAny(word, " \t"); i >= 0 {
			word = word[:i]
		}
	}
	return foreignCommands[word]
}

// foreignError is the error a script gets for such a line.
func foreignError(line string) error {
	word := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(line), ";"))
	if i := strings.IndexAny(word, " \t"); i >= 0 {
		word = word[:i]
	}
	return &diag.Error{Phase: diag.Command, Code: diag.CodeUnknownCommand,
		Msg: fmt.Sprintf("%q is not a ddbsql command or statement", word), Hint: foreignHint(line)}
}

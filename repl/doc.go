// Package repl is ddbsql's interactive loop: a go-prompt line editor with
// SQL and DynamoDB-aware completion, a history file, multi-line statements,
// backslash meta-commands, Ctrl-C that cancels the running statement, and a
// pager for results taller than the screen.
//
// It also runs scripts (-e, -f, piped stdin) for cmd/ddbsql: RunScripts
// cuts a script into statements, meta-commands and lines meant for other
// shells (.tables, quit), parses every statement first, and runs them in
// order. The REPL and scripts share one implementation of the
// meta-commands (runMetaCommand over a metaHost); they differ only where a
// terminal matters (\e, \pager) and in that a script stops at its first
// failure, located as file:line.
//
// Phase: front end. Statements go to exec/session one at a time; nothing
// here plans or reads data itself. The REPL reaches the session only
// through its methods: it reads the starting settings with Settings, copies
// its own (\format, \x, \set, \stats) in with the setters before each
// statement, wraps the client to remember attribute names (WrapClient),
// asks the Scan question (SetConfirmScan) and, before a write of several
// items, the write question with their count and WCU (SetConfirmWrite),
// and renders the statistics
// values the session hands to its sink (StatementStats.Text, JSON).
//
// Invariants:
//   - \o FILE (and -o FILE, handed over as ScriptConfig.Output or
//     Config.Output) is a format.Destination: a parquet or arrow result is
//     written whole and alone in it. Such a result is never sent to the
//     terminal: without \o the statement is refused with a hint.
//   - Run is used only when stdin and stdout are terminals (cmd/ddbsql
//     checks; otherwise stdin runs as a script), so no escape sequence ever
//     goes into a pipe or a file. Without a controlling terminal, where
//     go-prompt would panic, lines are read plainly (no completion).
//   - The terminal state is saved with term.GetState before go-prompt first
//     runs and restored on every way out (\q, quit, exit, Ctrl-D, double
//     Ctrl-C, a panic, SIGTERM, SIGHUP) and at the start of every statement.
//     go-prompt's own termios code is never used: ttyInput is its
//     ConsoleParser and derives raw mode from the saved state each time.
//   - go-prompt's Run (which calls os.Exit on signals) is never used: one
//     Input call per line, so raw mode is on only while a line is typed.
//   - A statement runs in cooked mode (ISIG on), so Ctrl-C is a SIGINT that
//     cancels only that statement's context (signal.NotifyContext per
//     statement, detached from the process context); SIGINT never ends the
//     REPL. SIGTERM and SIGHUP restore the terminal, remove every spill
//     directory still open (spill.RemoveAll) and exit (128+signal).
//   - Input is handed to go-prompt in pieces (a text run, one Enter, one
//     escape sequence or one control byte), and nothing after an Enter until
//     the next line is asked for: go-prompt maps a whole read to one key and
//     drops what its reader read ahead, which breaks pasted lines.
//   - A statement runs when its text ends with ';' outside quotes and
//     comments (parser.Split decides, so the REPL and the parser agree); a
//     meta-command runs on Enter. Each statement of a pasted script runs on
//     its own: an error is printed as in batch mode and the next one runs.
//   - Completion never holds up typing for long: catalog look-ups are cached
//     and bounded by short waits, failures back off; attribute names come
//     from key schemas and from items DynamoDB returned in this session
//     (recordingClient), never from extra reads. Function names come from
//     the planner's function catalogue (planner/funcs).
//   - With Config.NoColor (--no-color, NO_COLOR) no colour sequence is
//     written: go-prompt's colour options are all the default and its
//     writer turns colour requests into plain attributes (nocolor.go).
//   - History entries are single lines, never two equal in a row, bounded,
//     in a file of mode 0600; go-prompt's in-memory history is replaced by
//     them before every line.
package repl

// Runs a batch of SQL statements in one in-memory DuckDB (one thread) and
// prints one JSON document to stdout: an array with, per statement, either
// {"columns": [...], "rows": [{...}, ...]} or {"error": "..."}. Values are
// DuckDB's JSON forms (getRowObjectsJson): DECIMAL, BIGINT and HUGEINT as
// text so every digit survives, lists as arrays, structs as objects.
// Statements after a failed one still run (each is independent), so one
// process answers the whole batch. Used by internal/duckdbtest:
//
//	node batch.mjs < statements.json     (a JSON array of strings)
import { DuckDBInstance } from '@duckdb/node-api';

let input = '';
for await (const chunk of process.stdin) input += chunk;
const statements = JSON.parse(input);
if (!Array.isArray(statements) || statements.some((s) => typeof s !== 'string')) {
  process.stderr.write('batch.mjs: stdin must be a JSON array of SQL strings\n');
  process.exit(2);
}

const instance = await DuckDBInstance.create(':memory:', { threads: '1' });
const connection = await instance.connect();
const out = [];
for (const sql of statements) {
  try {
    const reader = await connection.runAndReadAll(sql);
    out.push({ columns: reader.columnNames(), rows: reader.getRowObjectsJson() });
  } catch (e) {
    out.push({ error: String(e && e.message ? e.message : e) });
  }
}
connection.closeSync();
instance.closeSync();
process.stdout.write(JSON.stringify(out));

// Runs one SQL statement in an in-memory DuckDB with a given number of
// threads and prints its rows to stdout as JSON lines (values as strings,
// so DECIMAL sums keep every digit). Used by `make bench-peers`:
//
//	node query.mjs THREADS "SELECT …"
import { DuckDBInstance } from '@duckdb/node-api';

const [threads, sql] = process.argv.slice(2);
if (!/^[1-9][0-9]*$/.test(threads ?? '') || !sql) {
  process.stderr.write('usage: node query.mjs THREADS SQL\n');
  process.exit(2);
}

const instance = await DuckDBInstance.create(':memory:', { threads });
const connection = await instance.connect();
const reader = await connection.runAndReadAll(sql);
for (const row of reader.getRowObjectsJS()) {
  const out = {};
  for (const [k, v] of Object.entries(row)) out[k] = v === null ? null : String(v);
  process.stdout.write(JSON.stringify(out) + '\n');
}
connection.closeSync();
instance.closeSync();

// DuckDB for the differential test: connections, and its values in the
// canonical form of ../../../shared/golden/FORMAT.md (tests/interop/duck_values.mjs).
import { DuckDBInstance } from '@duckdb/node-api';
import { duckValue, duckTimeHints, sqlPath } from '../interop/duck_values.mjs';

export { sqlPath, duckTimeHints as timeHints };

let instance;
export async function connect() {
  if (!instance) instance = await DuckDBInstance.create(':memory:', { threads: '1' });
  const c = await instance.connect();
  // timestamptz literals without a zone mean UTC, as parq reads them
  await c.run(`SET TimeZone = 'UTC'`);
  return c;
}

// The rows of a query in canonical form (objects keyed by column name).
export async function canonicalRows(c, sql, hints) {
  const r = await c.runAndReadAll(sql);
  const names = r.columnNames();
  return r.getRows().map((row) => {
    const o = {};
    names.forEach((n, k) => { o[n] = duckValue(row[k], hints[n]); });
    return o;
  });
}

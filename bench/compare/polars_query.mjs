// Times a Polars lazy scan with a filter (predicate pushdown into the
// Parquet reader), collecting every column of the rows that pass; run in its
// own process so that POLARS_MAX_THREADS takes effect. Prints the run times
// and the row count as JSON.
//   node polars_query.mjs FILE QUERY REPEAT   (QUERY: a key of queries.mjs)
import pl from 'nodejs-polars';
import { queries } from './queries.mjs';

const [path, name, repeat] = process.argv.slice(2);
const query = queries.find((q) => q.name === name);
if (!query) throw new Error(`unknown query ${name}`);
const seconds = [];
let rows = 0;
for (let k = 0; k < Number(repeat); ++k) {
  const start = process.hrtime.bigint();
  const df = await pl.scanParquet(path).filter(query.polars(pl)).collect();
  rows = df.height;
  seconds.push(Number(process.hrtime.bigint() - start) / 1e9);
}
console.log(JSON.stringify({ seconds, rows }));

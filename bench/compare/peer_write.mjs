// Times one peer writing a table it already holds in memory; run in its own
// process so that thread settings take effect and the peak RSS is its own.
//   node peer_write.mjs duckdb|polars INPUT CODEC REPEAT OUT
// Prints {"seconds": [...], "bytes": N, "peak_rss_bytes": N} as JSON.
import { DuckDBInstance } from '@duckdb/node-api';
import pl from 'nodejs-polars';
import { statSync, rmSync } from 'node:fs';

const [engine, input, codec, repeat, out] = process.argv.slice(2);
const seconds = [];

// The run before's file goes first, untimed (as parq bench write does):
// replacing it frees its blocks, the file system's work on the old file.
async function time(fn) {
  rmSync(out, { force: true });
  const start = process.hrtime.bigint();
  await fn();
  seconds.push(Number(process.hrtime.bigint() - start) / 1e9);
}

if (engine === 'duckdb') {
  const db = await DuckDBInstance.create(':memory:', { threads: '1' });
  const con = await db.connect();
  await con.run(`CREATE TABLE t AS SELECT * FROM read_parquet('${input}')`);
  for (let k = 0; k < Number(repeat); ++k)
    await time(() => con.run(`COPY t TO '${out}' (FORMAT parquet, COMPRESSION ${codec})`));
} else if (engine === 'polars') {
  const df = pl.readParquet(input);
  for (let k = 0; k < Number(repeat); ++k) await time(() => df.writeParquet(out, { compression: codec }));
} else {
  throw new Error(`unknown engine ${engine}`);
}
const bytes = statSync(out).size;
rmSync(out);
console.log(JSON.stringify({ seconds, bytes, peak_rss_bytes: process.resourceUsage().maxRSS * 1024 }));

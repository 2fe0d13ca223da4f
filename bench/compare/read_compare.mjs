// Side-by-side read benchmark: parq (1 and 2 threads), DuckDB (threads=1 and
// 2) and Polars (1 and 2 threads) read every file of data/ into memory, all
// columns, 5 times each; prints the medians (seconds) and the ratios.
//   npm ci && node read_compare.mjs [path/to/parq]
// DuckDB scans are timed with SELECT any_value(COLUMNS(*)), which makes it
// decode every column (count(col) lets it skip reading).
import { DuckDBInstance } from '@duckdb/node-api';
import { execFileSync } from 'node:child_process';
import { dataDir, files, generate } from './generate.mjs';

const parq = process.argv[2] ?? new URL('../../build/parq', import.meta.url).pathname;
const repeat = Number(process.env.PARQ_BENCH_REPEAT ?? 5);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function parqRead(path, threads) {
  const out = execFileSync(parq, ['bench', 'read', path, '--json', '--repeat', String(repeat), '--threads', String(threads)]);
  return median(JSON.parse(out).seconds);
}

async function duckdbRead(path, threads) {
  const db = await DuckDBInstance.create(':memory:', { threads: String(threads) });
  const con = await db.connect();
  const seconds = [];
  for (let k = 0; k < repeat; ++k) {
    const start = process.hrtime.bigint();
    await con.run(`SELECT any_value(COLUMNS(*)) FROM read_parquet('${path}')`);
    seconds.push(Number(process.hrtime.bigint() - start) / 1e9);
  }
  return median(seconds);
}

function polarsRead(path, threads) {
  const script = new URL('./polars_read.mjs', import.meta.url).pathname;
  const out = execFileSync(process.execPath, [script, path, String(repeat)], {
    env: { ...process.env, POLARS_MAX_THREADS: String(threads) },
  });
  return median(JSON.parse(out));
}

await generate();
const rows = [];
for (const f of files) {
  const path = dataDir + f.name;
  const r = { file: f.name };
  r.parq1 = parqRead(path, 1);
  r.parq2 = parqRead(path, 2);
  r.duckdb1 = await duckdbRead(path, 1);
  r.duckdb2 = await duckdbRead(path, 2);
  r.polars1 = polarsRead(path, 1);
  r.polars2 = polarsRead(path, 2);
  rows.push(r);
  process.stderr.write(`${f.name} done\n`);
}

const fmt = (x) => x.toFixed(3);
console.log('| file | parq 1t | parq 2t | DuckDB 1t | DuckDB 2t | Polars 1t | Polars 2t | DuckDB 1t / parq 1t | best peer 2t / parq 2t |');
console.log('|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  const bestPeer2 = Math.min(r.duckdb2, r.polars2);
  console.log(`| ${r.file} | ${fmt(r.parq1)} | ${fmt(r.parq2)} | ${fmt(r.duckdb1)} | ${fmt(r.duckdb2)} | ` +
    `${fmt(r.polars1)} | ${fmt(r.polars2)} | ${(r.duckdb1 / r.parq1).toFixed(2)}x | ${(bestPeer2 / r.parq2).toFixed(2)}x |`);
}

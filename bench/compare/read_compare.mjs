// Side-by-side read benchmark: parq (1 and 2 threads), DuckDB (threads=1 and
// 2) and Polars (1 and 2 threads) read every file of generate.mjs into
// memory, all columns, 5 times each (parq: 5 alternating rounds of 3 runs at
// each thread count); prints the medians (seconds) and the ratios, among
// them parq's speedup from a second thread.
//   npm ci && node read_compare.mjs [path/to/parq]
// PARQ_BENCH_FILES=polars,arrowrs keeps the files whose names contain one of
// the words (and generates only those, with their sources);
// PARQ_BENCH_REPEAT=K changes the run count.
// DuckDB scans are timed with SELECT any_value(COLUMNS(*)), which makes it
// decode every column (count(col) lets it skip reading).
import { DuckDBInstance } from '@duckdb/node-api';
import { execFileSync } from 'node:child_process';
import { dataDir, generate, selectFiles } from './generate.mjs';

const parq = process.argv[2] ?? new URL('../../build/parq', import.meta.url).pathname;
const repeat = Number(process.env.PARQ_BENCH_REPEAT ?? 5);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function parqRead(path, threads, runs) {
  return JSON.parse(execFileSync(parq, ['bench', 'read', path, '--json', '--repeat', String(runs),
    '--threads', String(threads)]));
}

// parq at 1 and 2 threads in alternating rounds (as write_compare.mjs does),
// so that the machine's drift lands on both sides of the 1t / 2t ratio
// alike; each side's runs are pooled (`repeat` rounds of 3 runs).
function parqReadBoth(path) {
  const one = [], two = [];
  for (let round = 0; round < repeat; ++round)
    for (const [threads, into] of round % 2 ? [[2, two], [1, one]] : [[1, one], [2, two]]) into.push(parqRead(path, threads, 3));
  const pool = (rs) => ({ seconds: median(rs.flatMap((r) => r.seconds)),
    rows: rs.every((r) => r.rows === rs[0].rows) ? rs[0].rows : NaN });
  return [pool(one), pool(two)];
}

async function duckdbShape(path) {
  const db = await DuckDBInstance.create(':memory:', { threads: '1' });
  const con = await db.connect();
  const rows = (await con.runAndReadAll(`SELECT count(*) FROM read_parquet('${path}')`)).getRows()[0][0];
  const columns = (await con.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${path}')`)).getRows().length;
  return { rows: Number(rows), columns };
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

const files = selectFiles(process.env.PARQ_BENCH_FILES);
await generate(files);
const rows = [];
const problems = [];
for (const f of files) {
  const path = dataDir + f.name;
  const r = { file: f.name, ...(await duckdbShape(path)) };
  const [p1, p2] = parqReadBoth(path);
  for (const p of [p1, p2])
    if (p.rows !== r.rows) problems.push(`${f.name}: parq read ${p.rows} rows, DuckDB counts ${r.rows}`);
  r.parq1 = p1.seconds;
  r.parq2 = p2.seconds;
  r.duckdb1 = await duckdbRead(path, 1);
  r.duckdb2 = await duckdbRead(path, 2);
  r.polars1 = polarsRead(path, 1);
  r.polars2 = polarsRead(path, 2);
  rows.push(r);
  process.stderr.write(`${f.name} done\n`);
}

const fmt = (x) => x.toFixed(3);
const ratio = (x) => `${x.toFixed(2)}x`;
console.log('| file | parq 1t | parq 2t | parq 1t / 2t | DuckDB 1t | DuckDB 2t | Polars 1t | Polars 2t | ' +
  'DuckDB 1t / parq 1t | best peer 2t / parq 2t |');
console.log('|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  const bestPeer2 = Math.min(r.duckdb2, r.polars2);
  console.log(`| ${r.file} | ${fmt(r.parq1)} | ${fmt(r.parq2)} | ${ratio(r.parq1 / r.parq2)} | ${fmt(r.duckdb1)} | ` +
    `${fmt(r.duckdb2)} | ${fmt(r.polars1)} | ${fmt(r.polars2)} | ${ratio(r.duckdb1 / r.parq1)} | ${ratio(bestPeer2 / r.parq2)} |`);
}

// The bars: single-threaded at least 1.5x DuckDB on every file; with two
// threads at least 1.8x as fast as with one on every file of two or more
// columns.
for (const r of rows) {
  if (r.duckdb1 / r.parq1 < 1.5) problems.push(`${r.file}: DuckDB 1t / parq 1t ${ratio(r.duckdb1 / r.parq1)} < 1.5x`);
  if (r.columns >= 2 && r.parq1 / r.parq2 < 1.8) problems.push(`${r.file}: parq 1t / 2t ${ratio(r.parq1 / r.parq2)} < 1.8x`);
}
console.log(problems.length ? `\n${problems.map((p) => `- ${p}`).join('\n')}` : '\nall bars met');

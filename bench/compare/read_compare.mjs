// Side-by-side read benchmark: parq (1 and 2 threads), DuckDB (threads=1 and
// 2) and Polars (1 and 2 threads) read every file of generate.mjs into
// memory, all columns, in 3 rounds of 3 runs each (see measure()); prints
// the medians (seconds) and the ratios, among them parq's speedup from a
// second thread, beside what the machine's two CPUs gave two one-thread
// reads at once (see parqReadPair).
//   npm ci && node read_compare.mjs [path/to/parq]
// PARQ_BENCH_FILES=polars,arrowrs keeps the files whose names contain one of
// the words (and generates only those, with their sources);
// PARQ_BENCH_REPEAT=K changes the round count.
// DuckDB scans are timed with SELECT any_value(COLUMNS(*)), which makes it
// decode every column (count(col) lets it skip reading).
import { DuckDBInstance } from '@duckdb/node-api';
import { execFile, execFileSync } from 'node:child_process';
import { promisify } from 'node:util';
import { dataDir, generate, selectFiles, settle } from './generate.mjs';

const parq = process.argv[2] ?? new URL('../../build/parq', import.meta.url).pathname;
const repeat = Number(process.env.PARQ_BENCH_REPEAT ?? 3);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

// parq's two thread counts take turns run by run in one process, so that
// the speedup from a second thread compares runs of one moment.
const parqArgs = (path, threads, runs) =>
  ['bench', 'read', path, '--json', '--repeat', String(runs), '--threads', threads.join(',')];

function parqRead(path, threads, runs) {
  return JSON.parse(execFileSync(parq, parqArgs(path, threads, runs)));
}

// Two one-thread reads at once, in two processes: what the machine's two
// cores give work that shares nothing at that moment, the ceiling of any
// two-thread read. A virtual machine's two CPUs are not always two cores:
// when the host runs them on one, each of the two reads takes nearly twice
// as long as one alone.
async function parqReadPair(path, runs) {
  const run = promisify(execFile);
  const outs = await Promise.all([run(parq, parqArgs(path, [1], runs)), run(parq, parqArgs(path, [1], runs))]);
  return outs.flatMap(({ stdout }) => JSON.parse(stdout).seconds.slice(1));
}

async function duckdbShape(path) {
  const db = await DuckDBInstance.create(':memory:', { threads: '1' });
  const con = await db.connect();
  const rows = (await con.runAndReadAll(`SELECT count(*) FROM read_parquet('${path}')`)).getRows()[0][0];
  const columns = (await con.runAndReadAll(`DESCRIBE SELECT * FROM read_parquet('${path}')`)).getRows().length;
  return { rows: Number(rows), columns };
}

async function duckdbConnect(threads) {
  const db = await DuckDBInstance.create(':memory:', { threads: String(threads) });
  return db.connect();
}

async function duckdbRead(con, path, runs) {
  const seconds = [];
  for (let k = 0; k < runs; ++k) {
    const start = process.hrtime.bigint();
    await con.run(`SELECT any_value(COLUMNS(*)) FROM read_parquet('${path}')`);
    seconds.push(Number(process.hrtime.bigint() - start) / 1e9);
  }
  return seconds;
}

function polarsRead(path, threads, runs) {
  const script = new URL('./polars_read.mjs', import.meta.url).pathname;
  const out = execFileSync(process.execPath, [script, path, String(runs)], {
    env: { ...process.env, POLARS_MAX_THREADS: String(threads) },
  });
  return JSON.parse(out);
}

// Every engine and thread count in each of `repeat` rounds of 3 runs, the
// order turning each round, and each one's runs pooled: the machine's
// drift over minutes lands on every side of every ratio alike, where one
// engine's runs after another's would compare two different machines.
// Each round's first run is a warm-up, not counted (for parq, the first of
// each thread count): parq and Polars start a process a round, whose first
// read takes fresh memory, while DuckDB keeps its instances.
async function measure(path) {
  const cons = { 1: await duckdbConnect(1), 2: await duckdbConnect(2) };
  const runs = {};
  const rows = new Set();
  const jobs = [];
  // Each job returns its runs by cell name.
  jobs.push(async () => {
    const r = parqRead(path, [1, 2], 4);
    rows.add(r.rows);
    return { parq1: r.seconds[0].slice(1), parq2: r.seconds[1].slice(1), pair1: await parqReadPair(path, 4) };
  });
  for (const threads of [1, 2]) {
    jobs.push(async () => ({ [`duckdb${threads}`]: (await duckdbRead(cons[threads], path, 4)).slice(1) }));
    jobs.push(async () => ({ [`polars${threads}`]: polarsRead(path, threads, 4).slice(1) }));
  }
  for (let round = 0; round < repeat; ++round)
    for (let k = 0; k < jobs.length; ++k)
      for (const [name, xs] of Object.entries(await jobs[(k + round) % jobs.length]())) (runs[name] ??= []).push(...xs);
  const r = Object.fromEntries(Object.entries(runs).map(([name, xs]) => [name, median(xs)]));
  r.parqRows = rows.size === 1 ? [...rows][0] : NaN;
  return r;
}

const files = selectFiles(process.env.PARQ_BENCH_FILES);
await generate(files);
const rows = [];
const problems = [];
for (const f of files) {
  const path = dataDir + f.name;
  settle(path);
  const r = { file: f.name, ...(await duckdbShape(path)), ...(await measure(path)) };
  if (r.parqRows !== r.rows) problems.push(`${f.name}: parq read ${r.parqRows} rows, DuckDB counts ${r.rows}`);
  rows.push(r);
  process.stderr.write(`${f.name} done\n`);
}

const fmt = (x) => x.toFixed(3);
const ratio = (x) => `${x.toFixed(2)}x`;
const pairSpeedup = (r) => (2 * r.parq1) / r.pair1;
// "2 x 1t at once": two one-thread reads in two processes at the same
// time, as a speedup over one alone (2 x parq 1t / their time).
console.log('| file | parq 1t | parq 2t | parq 1t / 2t | 2 x 1t at once | DuckDB 1t | DuckDB 2t | Polars 1t | ' +
  'Polars 2t | DuckDB 1t / parq 1t | best peer 2t / parq 2t |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  const bestPeer2 = Math.min(r.duckdb2, r.polars2);
  console.log(`| ${r.file} | ${fmt(r.parq1)} | ${fmt(r.parq2)} | ${ratio(r.parq1 / r.parq2)} | ` +
    `${ratio(pairSpeedup(r))} | ${fmt(r.duckdb1)} | ` +
    `${fmt(r.duckdb2)} | ${fmt(r.polars1)} | ${fmt(r.polars2)} | ${ratio(r.duckdb1 / r.parq1)} | ${ratio(bestPeer2 / r.parq2)} |`);
}

// The bars: single-threaded at least 1.5x DuckDB on every file; with two
// threads at least 1.8x as fast as with one on every file of two or more
// columns.
for (const r of rows) {
  if (r.duckdb1 / r.parq1 < 1.5) problems.push(`${r.file}: DuckDB 1t / parq 1t ${ratio(r.duckdb1 / r.parq1)} < 1.5x`);
  if (r.columns >= 2 && r.parq1 / r.parq2 < 1.8)
    problems.push(`${r.file}: parq 1t / 2t ${ratio(r.parq1 / r.parq2)} < 1.8x ` +
      `(two one-thread reads at once: ${ratio(pairSpeedup(r))})`);
}
console.log(problems.length ? `\n${problems.map((p) => `- ${p}`).join('\n')}` : '\nall bars met');

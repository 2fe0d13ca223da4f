// Side-by-side selective-query benchmark: parq, DuckDB and Polars (lazy scan
// with the filter pushed down) at 1 and 2 threads, medians of repeated runs,
// on two lineitem files of 6 M rows:
//   - lineitem_parq_sorted.parquet: generate.mjs's lineitem (ordered by
//     l_orderkey) rewritten by parq with its page index and bloom filters on
//     l_orderkey and l_comment;
//   - lineitem_unsorted.parquet: the same rows in hashed order, written by
//     DuckDB (its layout: one page per column chunk, no page index).
// Each query returns every column of the rows that pass (DuckDB: any_value
// over COLUMNS(*), which decodes them; Polars: collect()). parq's bytes read
// (footer included) are shown as a share of the file.
//   npm ci && node query_compare.mjs [path/to/parq]
import { DuckDBInstance } from '@duckdb/node-api';
import { execFileSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { dataDir, generate, settle } from './generate.mjs';
import { queries } from './queries.mjs';

const parq = process.argv[2] ?? new URL('../../build/parq', import.meta.url).pathname;
const repeat = Number(process.env.PARQ_BENCH_REPEAT ?? 5);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

await generate();
const source = dataDir + 'lineitem_snappy.parquet';
const sorted = dataDir + 'lineitem_parq_sorted.parquet';
const unsorted = dataDir + 'lineitem_unsorted.parquet';
if (!existsSync(sorted)) {
  process.stderr.write('writing lineitem_parq_sorted.parquet with parq\n');
  execFileSync(parq, ['rewrite', source, sorted, '--bloom-filter', 'l_orderkey', '--bloom-filter', 'l_comment']);
}
if (!existsSync(unsorted)) {
  process.stderr.write('writing lineitem_unsorted.parquet with DuckDB\n');
  const db = await DuckDBInstance.create(':memory:');
  const con = await db.connect();
  await con.run(`COPY (SELECT * FROM read_parquet('${source}') ORDER BY hash(l_orderkey, l_linenumber))
                 TO '${unsorted}' (FORMAT parquet, COMPRESSION snappy)`);
}

function parqRun(path, threads, where) {
  const args = ['bench', 'read', path, '--json', '--repeat', String(repeat), '--threads', String(threads)];
  if (where) args.push('--where', where);
  const r = JSON.parse(execFileSync(parq, args));
  return { seconds: median(r.seconds), rows: r.rows, bytesRead: r.bytes_read };
}

async function duckdbRun(path, threads, sql) {
  const db = await DuckDBInstance.create(':memory:', { threads: String(threads) });
  const con = await db.connect();
  const seconds = [];
  let rows = 0;
  for (let k = 0; k < repeat; ++k) {
    const start = process.hrtime.bigint();
    const reader = await con.runAndReadAll(
      `SELECT count(*) AS n, any_value(COLUMNS(*)) FROM read_parquet('${path}') WHERE ${sql}`);
    seconds.push(Number(process.hrtime.bigint() - start) / 1e9);
    rows = Number(reader.getRowObjects()[0].n);
  }
  return { seconds: median(seconds), rows };
}

function polarsRun(path, threads, name) {
  const script = new URL('./polars_query.mjs', import.meta.url).pathname;
  const out = JSON.parse(execFileSync(process.execPath, [script, path, name, String(repeat)], {
    env: { ...process.env, POLARS_MAX_THREADS: String(threads) },
  }));
  return { seconds: median(out.seconds), rows: out.rows };
}

const fmt = (x) => x.toFixed(4);
const lines = [];
lines.push('| file | query | rows | parq 1t | parq 2t | DuckDB 1t | DuckDB 2t | Polars 1t | Polars 2t | DuckDB 1t / parq 1t | parq bytes read |');
lines.push('|---|---|---|---|---|---|---|---|---|---|---|');
for (const path of [sorted, unsorted]) {
  const size = statSync(path).size;
  const file = path.split('/').pop();
  settle(path);
  const full = parqRun(path, 1, null);
  lines.push(`| ${file} | full read | ${full.rows} | ${fmt(full.seconds)} | ${fmt(parqRun(path, 2, null).seconds)} | | | | | | ${(100 * full.bytesRead / size).toFixed(2)}% |`);
  for (const q of queries) {
    const p1 = parqRun(path, 1, q.parq), p2 = parqRun(path, 2, q.parq);
    const d1 = await duckdbRun(path, 1, q.sql), d2 = await duckdbRun(path, 2, q.sql);
    const pl1 = polarsRun(path, 1, q.name), pl2 = polarsRun(path, 2, q.name);
    for (const [who, r] of [['DuckDB', d1], ['Polars', pl1]])
      if (r.rows !== p1.rows) throw new Error(`${file} ${q.name}: parq returned ${p1.rows} rows, ${who} ${r.rows}`);
    lines.push(`| ${file} | ${q.name}: ${q.what} | ${p1.rows} | ${fmt(p1.seconds)} | ${fmt(p2.seconds)} | ` +
      `${fmt(d1.seconds)} | ${fmt(d2.seconds)} | ${fmt(pl1.seconds)} | ${fmt(pl2.seconds)} | ` +
      `${(d1.seconds / p1.seconds).toFixed(2)}x | ${(100 * p1.bytesRead / size).toFixed(2)}% |`);
    process.stderr.write(`${file} ${q.name} done\n`);
  }
}
console.log(lines.join('\n'));

// Side-by-side write benchmark: parq, DuckDB and Polars, each on 1 thread,
// write the lineitem table (already loaded in memory) as SNAPPY and as ZSTD
// Parquet, 5 times each; prints the medians (seconds), file sizes, peak RSS
// and the ratios.
//   npm ci && node write_compare.mjs [path/to/parq]
// Every engine writes to a file in the same folder; each runs in its own
// process (POLARS_MAX_THREADS=1, DuckDB threads=1) so its peak RSS is its own:
// the loaded table plus what writing needs.
import { execFileSync } from 'node:child_process';
import { dataDir, generate } from './generate.mjs';

const parq = process.argv[2] ?? new URL('../../build/parq', import.meta.url).pathname;
const repeat = Number(process.env.PARQ_BENCH_REPEAT ?? 5);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const input = dataDir + 'lineitem_none.parquet';
const out = (name) => dataDir + `write_${name}.parquet`;

function parqWrite(codec) {
  const json = execFileSync(parq, ['bench', 'write', input, '--codec', codec, '--json', '--repeat', String(repeat),
    '--out', out('parq')]);
  return JSON.parse(json);
}

function peerWrite(engine, codec) {
  const script = new URL('./peer_write.mjs', import.meta.url).pathname;
  const json = execFileSync(process.execPath, [script, engine, input, codec, String(repeat), out(engine)], {
    env: { ...process.env, POLARS_MAX_THREADS: '1' },
  });
  return JSON.parse(json);
}

await generate();
const rows = [];
for (const codec of ['snappy', 'zstd']) {
  const r = { codec, parq: parqWrite(codec), duckdb: peerWrite('duckdb', codec), polars: peerWrite('polars', codec) };
  rows.push(r);
  process.stderr.write(`${codec} done\n`);
}

const s = (x) => median(x.seconds).toFixed(3);
const mb = (n) => (n / 1e6).toFixed(1);
console.log('| codec | parq 1t (s) | DuckDB 1t (s) | Polars 1t (s) | fastest peer / parq | size parq / DuckDB / Polars (MB) | parq / DuckDB size | peak RSS parq / DuckDB / Polars (MB) |');
console.log('|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  const best = Math.min(median(r.duckdb.seconds), median(r.polars.seconds));
  console.log(`| ${r.codec} | ${s(r.parq)} | ${s(r.duckdb)} | ${s(r.polars)} | ${(best / median(r.parq.seconds)).toFixed(2)}x | ` +
    `${mb(r.parq.bytes)} / ${mb(r.duckdb.bytes)} / ${mb(r.polars.bytes)} | ${(r.parq.bytes / r.duckdb.bytes).toFixed(3)} | ` +
    `${mb(r.parq.peak_rss_bytes)} / ${mb(r.duckdb.peak_rss_bytes)} / ${mb(r.polars.peak_rss_bytes)} |`);
}

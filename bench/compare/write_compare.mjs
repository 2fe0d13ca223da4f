// Side-by-side write benchmark: parq, DuckDB and Polars, each on 1 thread,
// and parq on 2, write the lineitem table (already loaded in memory) as
// SNAPPY and as ZSTD Parquet, 5 times each (parq: 5 alternating rounds of 3
// runs at each thread count); prints the medians (seconds),
// file sizes, peak RSS and the ratios. Two lineitems: comments of random
// hex digits (which barely compress) and comments of words (text, as
// TPC-H's: where codecs and dictionaries differ most).
//   npm ci && node write_compare.mjs [path/to/parq]
// Every engine writes to a file in the same folder; each runs in its own
// process (POLARS_MAX_THREADS=1, DuckDB threads=1) so its peak RSS is its own:
// the loaded table plus what writing needs.
import { execFileSync } from 'node:child_process';
import { dataDir, files, generate } from './generate.mjs';

const parq = process.argv[2] ?? new URL('../../build/parq', import.meta.url).pathname;
const repeat = Number(process.env.PARQ_BENCH_REPEAT ?? 5);
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const inputs = { hex: 'lineitem_none.parquet', text: 'lineitem_text_none.parquet' };
const out = (name) => dataDir + `write_${name}.parquet`;

function parqWrite(input, codec, threads, runs = repeat) {
  const json = execFileSync(parq, ['bench', 'write', input, '--codec', codec, '--threads', String(threads), '--json',
    '--repeat', String(runs), '--out', out('parq')]);
  return JSON.parse(json);
}

// parq at 1 and 2 threads in alternating rounds, so that the machine's
// drift over a minute lands on both sides of the ratio alike; each side's
// runs are pooled (`repeat` rounds of 3 runs).
function parqWriteBoth(input, codec) {
  const one = [], two = [];
  for (let round = 0; round < repeat; ++round)
    for (const [threads, into] of round % 2 ? [[2, two], [1, one]] : [[1, one], [2, two]]) into.push(parqWrite(input, codec, threads, 3));
  const pool = (rs) => ({ ...rs[0], seconds: rs.flatMap((r) => r.seconds),
    peak_rss_bytes: Math.max(...rs.map((r) => r.peak_rss_bytes)) });
  return [pool(one), pool(two)];
}

function peerWrite(engine, input, codec) {
  const script = new URL('./peer_write.mjs', import.meta.url).pathname;
  const json = execFileSync(process.execPath, [script, engine, input, codec, String(repeat), out(engine)], {
    env: { ...process.env, POLARS_MAX_THREADS: '1' },
  });
  return JSON.parse(json);
}

await generate(files.filter((f) => Object.values(inputs).includes(f.name)));
const rows = [];
for (const [comments, name] of Object.entries(inputs)) {
  const input = dataDir + name;
  for (const codec of ['snappy', 'zstd']) {
    const [one, two] = parqWriteBoth(input, codec);
    const r = {
      comments, codec, parq: one, parq2: two,
      duckdb: peerWrite('duckdb', input, codec), polars: peerWrite('polars', input, codec),
    };
    rows.push(r);
    process.stderr.write(`${comments} ${codec} done\n`);
  }
}

const s = (x) => median(x.seconds).toFixed(3);
const mb = (n) => (n / 1e6).toFixed(1);
console.log('| comments | codec | parq 1t (s) | parq 2t (s) | DuckDB 1t (s) | Polars 1t (s) | fastest peer / parq 1t | parq 1t / 2t | size parq / DuckDB / Polars (MB) | parq / DuckDB size | peak RSS parq / DuckDB / Polars (MB) |');
console.log('|---|---|---|---|---|---|---|---|---|---|---|');
for (const r of rows) {
  const best = Math.min(median(r.duckdb.seconds), median(r.polars.seconds));
  console.log(`| ${r.comments} | ${r.codec} | ${s(r.parq)} | ${s(r.parq2)} | ${s(r.duckdb)} | ${s(r.polars)} | ` +
    `${(best / median(r.parq.seconds)).toFixed(2)}x | ${(median(r.parq.seconds) / median(r.parq2.seconds)).toFixed(2)}x | ` +
    `${mb(r.parq.bytes)} / ${mb(r.duckdb.bytes)} / ${mb(r.polars.bytes)} | ${(r.parq.bytes / r.duckdb.bytes).toFixed(3)} | ` +
    `${mb(r.parq.peak_rss_bytes)} / ${mb(r.duckdb.peak_rss_bytes)} / ${mb(r.polars.peak_rss_bytes)} |`);
}

// Interop test, both directions:
//  read:  for every file an engine writes, the same engine's reading of it
//         (in canonical form) must equal `parq cat FILE`, line by line;
//  write: for every file parq writes (wmain.mjs: `parq rewrite` of one source
//         under a matrix of codecs, page versions, dictionary modes, encodings
//         and bloom filters), parq and every engine read the source's rows back,
//         and DuckDB sees the expected footer and bloom filters.
//  dataset: Hive-partitioned folders with schema drift written by DuckDB and
//         by parq read alike by both (datasets.mjs).
// Env: INTEROP_PART=read|write|dataset (default all), INTEROP_ENGINES, INTEROP_KEEP.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { buildDataset } from './data.mjs';
import { writeDuckDB, writePolars, writeParquetWasm, writeHyparquet } from './writers.mjs';
import { readDuckDB, readPolars, readParquetWasm, readHyparquet } from './readers.mjs';
import { compareRows } from './canonical.mjs';
import { runWriterDirection } from './wmain.mjs';
import { runDatasetDirection } from './datasets.mjs';
import { duckdb } from './readers.mjs';

const run = promisify(execFile);
const parq = process.argv[2];
if (!parq || !fs.existsSync(parq)) { console.error('usage: node main.mjs PARQ_BINARY'); process.exit(2); }
const only = process.env.INTEROP_ENGINES?.split(',');
const part = process.env.INTEROP_PART ?? 'all';
const t0 = Date.now();

const engines = [
  ['duckdb', writeDuckDB, readDuckDB],
  ['polars', writePolars, readPolars],
  ['parquet-wasm', writeParquetWasm, readParquetWasm],
  ['hyparquet', writeHyparquet, readHyparquet],
].filter(([n]) => (!only || only.includes(n)) && (part === 'all' || part === 'read'));

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parq-interop-'));
const ds = buildDataset();
const stats = {};
let passed = 0, failed = 0;
const skips = [];
for (const [name, write, read] of engines) {
  const st = (stats[name] = { passed: 0, failed: 0, skipped: 0 });
  let cases;
  try { cases = await write(ds, dir); } catch (e) {
    console.log(`${name} | writer | - | FAIL: writer crashed: ${e.stack}`);
    st.failed++; failed++; continue;
  }
  for (const c of cases) {
    if (c.skip) { st.skipped++; skips.push(`${c.engine} | ${c.options} | SKIP: ${c.skip}`); continue; }
    const base = `${c.engine} | ${c.options} | ${path.basename(c.file)}`;
    let msg = null;
    try {
      const expected = await read(c.file);
      let out;
      try { out = (await run(parq, ['cat', c.file], { maxBuffer: 1 << 30 })).stdout; } catch (e) {
        throw new Error(`parq cat failed (exit ${e.code}): ${String(e.stderr).trim().split('\n')[0]}`);
      }
      if (out.length && !out.endsWith('\n')) throw new Error('parq output does not end with a newline');
      const lines = out.length ? out.slice(0, -1).split('\n') : [];
      msg = compareRows(expected, lines);
    } catch (e) { msg = String(e.message ?? e); }
    if (msg === null) { st.passed++; passed++; console.log(`${base} | PASS`); }
    else { st.failed++; failed++; console.log(`${base} | FAIL: ${msg}`); }
  }
}
for (const s of skips) console.log(s);
for (const [n, s] of Object.entries(stats)) console.log(`${n}: ${s.passed} passed, ${s.failed} failed, ${s.skipped} skipped`);
if (part === 'all' || part === 'read') console.log(`read: ${passed} passed, ${failed} failed in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
if ((part === 'all' || part === 'dataset') && (!only || only.includes('duckdb'))) {
  try {
    const d = await runDatasetDirection({ parq, dir, duck: await duckdb() });
    passed += d.passed; failed += d.failed;
  } catch (e) {
    console.log(`dataset | - | - | FAIL: dataset direction crashed: ${e.stack}`);
    failed++;
  }
}
if (part === 'all' || part === 'write') {
  try {
    const w = await runWriterDirection({ parq, dir, only });
    passed += w.passed; failed += w.failed;
  } catch (e) {
    console.log(`write | - | - | FAIL: writer direction crashed: ${e.stack}`);
    failed++;
  }
}
if (!process.env.INTEROP_KEEP) fs.rmSync(dir, { recursive: true, force: true }); else console.log('files kept in ' + dir);
console.log(`interop took ${((Date.now() - t0) / 1000).toFixed(1)} s`);
console.log(`interop: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);

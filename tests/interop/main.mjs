// Interop test: for every file an engine writes, the same engine's reading of it
// (in canonical form) must equal `parq cat FILE`, line by line.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { buildDataset } from './data.mjs';
import { writeDuckDB, writePolars, writeParquetWasm, writeHyparquet } from './writers.mjs';
import { readDuckDB, readPolars, readParquetWasm, readHyparquet } from './readers.mjs';
import { compareRows } from './canonical.mjs';

const run = promisify(execFile);
const parq = process.argv[2];
if (!parq || !fs.existsSync(parq)) { console.error('usage: node main.mjs PARQ_BINARY'); process.exit(2); }
const only = process.env.INTEROP_ENGINES?.split(',');

const engines = [
  ['duckdb', writeDuckDB, readDuckDB],
  ['polars', writePolars, readPolars],
  ['parquet-wasm', writeParquetWasm, readParquetWasm],
  ['hyparquet', writeHyparquet, readHyparquet],
].filter(([n]) => !only || only.includes(n));

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
if (!process.env.INTEROP_KEEP) fs.rmSync(dir, { recursive: true, force: true }); else console.log('files kept in ' + dir);
console.log(`interop: ${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);

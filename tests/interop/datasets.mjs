// Dataset interop with DuckDB, both directions: Hive-partitioned folders
// with schema drift (a column added, INTEGER widened to BIGINT, a null
// partition) written by DuckDB (COPY ... PARTITION_BY) and by parq
// (`parq convert --partition-by`), each read by parq (`parq cat DIR`) and by
// DuckDB (read_parquet(..., hive_partitioning = true, union_by_name = true)),
// with and without filters, must give the same rows. Row order across files
// is each engine's own, so rows are compared sorted by their key.
import fs from 'node:fs';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { duckValue, sqlPath } from './duck_values.mjs';
import { compareRows } from './canonical.mjs';

const run = promisify(execFile);

function sortById(rows) {
  return rows.sort((a, b) => Number(a.id) - Number(b.id));
}

async function duckRows(c, dir, where) {
  const r = await c.runAndReadAll(
    `SELECT * FROM read_parquet(${sqlPath(dir + '/**/*.parquet')}, hive_partitioning = true, union_by_name = true)` +
      (where ? ` WHERE ${where}` : ''));
  const names = r.columnNames();
  return sortById(r.getRows().map((row) => {
    const o = {};
    names.forEach((n, k) => { o[n] = duckValue(row[k], {}); });
    return o;
  }));
}

// parq puts partition columns in the order their folders nest, DuckDB by
// name: the keys are put in DuckDB's order before comparing.
async function parqRows(parq, dir, where, order) {
  const args = ['cat', dir];
  if (where) args.push('--where', where);
  const out = (await run(parq, args, { maxBuffer: 1 << 28 })).stdout;
  const rows = out.length ? out.slice(0, -1).split('\n').map((l) => JSON.parse(l)) : [];
  return sortById(rows).map((r) => {
    const o = {};
    for (const k of order ?? Object.keys(r)) if (k in r) o[k] = r[k];
    for (const k of Object.keys(r)) if (!(k in o)) o[k] = r[k];
    return JSON.stringify(o);
  });
}

// Rows of two generations: the second adds `extra`, widens `id` and drops
// `score`; regions include one with a '/' and a null.
function generation(g) {
  const rows = [];
  for (let i = 0; i < 60; i++) {
    const id = g * 1000 + i;
    const region = ['EU', 'US/East', null, 'APAC'][i % 4];
    const year = 2023 + (i % 2);
    rows.push(g === 0 ? { id, name: `n${i % 7}`, score: i / 4, year, region }
                      : { id, name: i % 5 ? `m${i % 3}` : null, extra: `x${i}`, year, region });
  }
  return rows;
}

const filters = [
  null,
  "region = 'EU'",
  "year = 2024 AND id > 1010",
  "region IS NULL OR extra = 'x3'",
  "NOT (region IN ('EU', 'APAC')) AND name IS NOT NULL",
  'score > 5 OR extra IS NULL',
];

export async function runDatasetDirection({ parq, dir, duck }) {
  let passed = 0, failed = 0;
  const check = async (label, dsDir) => {
    for (const where of filters) {
      let msg;
      try {
        const expected = await duckRows(duck, dsDir, where);
        const order = expected.length ? Object.keys(expected[0]) : null;
        msg = compareRows(expected, await parqRows(parq, dsDir, where, order));
      } catch (e) { msg = String(e.message ?? e); }
      const base = `dataset | ${label} | ${where ?? '(all rows)'}`;
      if (msg === null) { passed++; console.log(`${base} | PASS`); }
      else { failed++; console.log(`${base} | FAIL: ${msg}`); }
    }
  };

  // DuckDB writes: one COPY per generation into one folder.
  const duckDir = path.join(dir, 'duck-hive');
  for (const g of [0, 1]) {
    const src = path.join(dir, `gen${g}.jsonl`);
    fs.writeFileSync(src, generation(g).filter((r) => r.region !== null).map((r) => JSON.stringify(r)).join('\n') + '\n');
    const cols = g === 0 ? 'id::INTEGER AS id, name, score::DOUBLE AS score, year, region'
                         : 'id::BIGINT AS id, name, extra, year, region';
    await duck.run(`COPY (SELECT ${cols} FROM read_json_auto(${sqlPath(src)})) TO ${sqlPath(duckDir)} ` +
                   `(FORMAT parquet, PARTITION_BY (year, region), OVERWRITE_OR_IGNORE true, FILENAME_PATTERN 'g${g}_{i}')`);
  }
  await check('written by duckdb', duckDir);

  // parq writes: one convert per generation into one folder.
  const parqDir = path.join(dir, 'parq-hive');
  for (const g of [0, 1]) {
    const src = path.join(dir, `parq-gen${g}.jsonl`);
    fs.writeFileSync(src, generation(g).map((r) => JSON.stringify(r)).join('\n') + '\n');
    const schema = path.join(dir, `gen${g}.schema`);
    fs.writeFileSync(schema, g === 0
      ? 'message m { optional int32 id; optional binary name (STRING); optional double score; optional int64 year; optional binary region (STRING); }'
      : 'message m { optional int64 id; optional binary name (STRING); optional binary extra (STRING); optional int64 year; optional binary region (STRING); }');
    await run(parq, ['convert', src, parqDir, '--schema', schema, '--partition-by', 'year,region']);
  }
  await check('written by parq', parqDir);
  return { passed, failed };
}

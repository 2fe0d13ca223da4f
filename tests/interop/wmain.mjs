// Writer direction of the interop test: parq writes (`parq rewrite`) the source
// file of wsource.mjs under every cell of wmatrix.mjs; parq itself and each peer
// engine read every output back, and the rows must equal the source's canonical
// JSON Lines (`parq cat SRC`). DuckDB's parquet_metadata and parquet_bloom_probe
// check codecs, encodings, statistics and bloom filters (wmeta.mjs).
//
// What a peer cannot read is skipped for that cell (or that column) with its
// reason, counted and listed; skips are not passes. A peer that reads a
// feature only in another representation (ENUM as binary, TIME in
// nanoseconds) is compared after a lossless conversion, listed as a note.
import fs from 'node:fs';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { buildSource, writeSource, leaves as leavesOf, f16ToNumber } from './wsource.mjs';
import { buildCells, cellArgs, defaultEncoding } from './wmatrix.mjs';
import { readDuckDB, readPolars, readParquetWasm, readHyparquet } from './readers.mjs';
import { parseJson, sameValue, show } from './canonical.mjs';
import { checkMetadata, checkBloom, duckBloomSkip, DUCK_BLOOM_SKIP } from './wmeta.mjs';
import { shareOf } from './share.mjs';

const run = promisify(execFile);
const utf8 = new TextDecoder('utf-8');

// ---------------------------------------------------------------- what each peer reads
const READERS = { duckdb: readDuckDB, polars: readPolars, 'parquet-wasm': readParquetWasm, hyparquet: readHyparquet };

// columns a peer never reads as written, for every cell
const COLUMN_SKIPS = {
  duckdb: { ts_ns_utc: 'DuckDB reads TIMESTAMP(NANOS, isAdjustedToUTC) as microsecond TIMESTAMPTZ (nanoseconds truncated)' },
  'parquet-wasm': { iv: 'arrow-rs reads INTERVAL as Interval(DayTime), dropping the months' },
  polars: { iv: 'Polars fails on INTERVAL: "Arrow Field dtype does not match the ArrayRef dtypes"' },
  hyparquet: {
    iv: 'hyparquet: "parquet interval not supported"',
    dec_18_6: 'hyparquet reads decimals as float64 (not exact beyond 15 digits)',
    dec_38_10: 'hyparquet reads decimals as float64 (not exact beyond 15 digits)',
    dec_20_3: 'hyparquet reads decimals as float64 (not exact beyond 15 digits)',
  },
};

// whole cells a peer cannot read: [predicate(cell), reason]
const CELL_SKIPS = {
  duckdb: [[(c) => c.codec === 'lzo', 'DuckDB: Unsupported compression codec "LZO"'],
    [(c) => c.codec === 'lz4', 'DuckDB: Unsupported compression codec "LZ4" (Hadoop-framed; LZ4_RAW is read)']],
  polars: [[(c) => c.codec === 'lzo', 'Polars: "Compression Lzo is not supported"']],
  'parquet-wasm': [[(c) => c.codec === 'lzo', 'arrow-rs: "The codec type LZO is not supported yet"']],
  hyparquet: [], // LZO through lzo.mjs; ZSTD, LZ4 and LZ4_RAW through hyparquet-compressors
};

// leaves a peer cannot decode in some encoding: [predicate(leaf, encoding), reason]; the top column is left out
const ENCODING_SKIPS = {
  duckdb: [[(l, e) => e === 'BYTE_STREAM_SPLIT' && (l.physical === 'INT32' || l.physical === 'INT64' || l.physical === 'FIXED_LEN_BYTE_ARRAY'),
    'DuckDB lacks BYTE_STREAM_SPLIT on INT32/INT64/FIXED_LEN_BYTE_ARRAY'],
  [(l, e) => e === 'DELTA_LENGTH_BYTE_ARRAY' && l.kind === 'decimal',
    'DuckDB: "Delta Length Byte Array encoding is only supported for string/blob data" (BYTE_ARRAY DECIMAL)']],
  polars: [[(l, e) => l.physical === 'FIXED_LEN_BYTE_ARRAY' && (e === 'DELTA_BYTE_ARRAY' || e === 'BYTE_STREAM_SPLIT'),
    'Polars: "Decoding FixedLenByteArray DeltaByteArray/ByteStreamSplit-encoded optional parquet pages not yet supported"']],
  'parquet-wasm': [],
  hyparquet: [],
};

// the non-dictionary encodings a leaf's data pages may use in a cell
function dataEncodings(cell, l) {
  if (cell.enc[l.path]) return [cell.enc[l.path]];
  if (cell.dict === 'on' && l.physical !== 'BOOLEAN') return []; // dictionary pages only (checked in wmeta)
  return [defaultEncoding(l.physical, cell.pv)];
}

// lossless conversions of a peer's representation: column -> [fn(value), note]
const b64 = (v) => Buffer.from(v, 'base64');
const isB64 = (v) => typeof v === 'string' && Buffer.from(v, 'base64').toString('base64') === v;
const asUtf8 = (v) => (isB64(v) ? utf8.decode(b64(v)) : v);
const asUuid = (v) => {
  if (!isB64(v) || b64(v).length !== 16) return v;
  const h = b64(v).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
};
const asF16 = (v) => {
  if (!isB64(v) || b64(v).length !== 2) return v;
  const x = f16ToNumber(b64(v).readUInt16LE(0));
  return Number.isNaN(x) ? 'NaN' : x === Infinity ? 'Infinity' : x === -Infinity ? '-Infinity' : x;
};
// 'HH:MM:SS.fffffffff' -> the unit's digits, when the dropped digits are zeros
const asTime = (digits) => (v) => (typeof v === 'string' && /^\d\d:\d\d:\d\d\.\d{9}$/.test(v) && /^0*$/.test(v.slice(9 + digits))
  ? v.slice(0, 9 + digits) : v);
const NORMALIZE = {
  duckdb: {},
  'parquet-wasm': {
    uuid: [asUuid, 'arrow-rs reads UUID as FixedSizeBinary(16): compared as the UUID of its bytes'],
    e: [asUtf8, 'arrow-rs reads ENUM as Binary: compared as the UTF-8 of its bytes'],
  },
  polars: {
    uuid: [asUuid, 'Polars reads UUID as binary: compared as the UUID of its bytes'],
    e: [asUtf8, 'Polars reads ENUM as binary: compared as the UTF-8 of its bytes'],
    j: [asUtf8, 'Polars reads JSON as binary: compared as the UTF-8 of its bytes'],
    f16: [asF16, 'Polars reads FLOAT16 as binary: compared as the half float of its bytes'],
    t_ms: [asTime(3), 'Polars reads TIME(MILLIS) as nanoseconds: compared in milliseconds when exact'],
    t_us: [asTime(6), 'Polars reads TIME(MICROS) as nanoseconds: compared in microseconds when exact'],
  },
  hyparquet: { e: [asUtf8, 'hyparquet reads ENUM as bytes: compared as the UTF-8 of its bytes'] },
};

// ---------------------------------------------------------------- comparing
function compareEngine(expected, rows, cols) {
  if (rows.length !== expected.length) {
    for (let r = 0; r < Math.min(rows.length, expected.length); r++) {
      const m = diffRow(expected[r], rows[r], cols, r);
      if (m) return m;
    }
    return `row count differs: parq source ${expected.length}, engine ${rows.length}`;
  }
  for (let r = 0; r < rows.length; r++) {
    const m = diffRow(expected[r], rows[r], cols, r);
    if (m) return m;
  }
  return null;
}

function diffRow(exp, got, cols, r) {
  const bad = cols.filter((c) => !sameValue(exp[c] ?? null, got[c] ?? null) || !(c in got));
  if (!bad.length) return null;
  return `line ${r + 1} column(s) ${bad.join(',')}: ` + bad.slice(0, 3).map((c) => `${c}: expected=${show(exp[c])} engine=${show(got[c])}`).join('; ');
}

function firstTextDiff(a, b) {
  const la = a.split('\n'), lb = b.split('\n');
  for (let i = 0; i < Math.max(la.length, lb.length); i++) {
    if (la[i] !== lb[i]) return `line ${i + 1}: source=${(la[i] ?? '<none>').slice(0, 400)} | output=${(lb[i] ?? '<none>').slice(0, 400)}`;
  }
  return null;
}

// ---------------------------------------------------------------- the run
export async function runWriterDirection({ parq, dir, only, log = console.log }) {
  const t0 = Date.now();
  const res = { passed: 0, failed: 0, skipped: 0, perEngine: {} };
  const skipAgg = new Map(); // "engine | what | reason" -> count
  const notes = new Set();
  const tally = (engine, kind) => {
    const e = (res.perEngine[engine] ??= { passed: 0, failed: 0, skipped: 0, columnSkips: 0 });
    e[kind]++;
    if (kind !== 'columnSkips') res[kind]++;
  };
  const skip = (engine, what, reason, kind = 'skipped') => {
    tally(engine, kind);
    const k = `${engine} | ${what} | SKIP: ${reason}`;
    skipAgg.set(k, (skipAgg.get(k) ?? 0) + 1);
  };
  const outcome = (engine, cell, msg) => {
    if (msg === null) { tally(engine, 'passed'); log(`write | ${cell} | ${engine} | PASS`); }
    else { tally(engine, 'failed'); log(`write | ${cell} | ${engine} | FAIL: ${msg}`); }
  };
  const engines = Object.keys(READERS).filter((n) => !only || only.includes(n));

  // the source
  const src = buildSource();
  const leaves = leavesOf(src);
  const srcFile = path.join(dir, 'w-source.parquet');
  await writeSource(src, srcFile);
  let srcText;
  try {
    srcText = (await run(parq, ['cat', '--format=jsonl', srcFile], { maxBuffer: 1 << 30 })).stdout;
  } catch (e) {
    outcome('parq', 'source', `parq cat of the source failed: ${String(e.stderr).trim().split('\n')[0]}`);
    return res;
  }
  const expected = srcText.trimEnd().split('\n').map(parseJson);
  const topCols = src.columns.map((c) => c.name);

  // reads `file` with `engine` and compares; returns null, or a message
  async function engineCase(engine, cellName, file, cell) {
    for (const [pred, why] of cell ? CELL_SKIPS[engine] : []) if (pred(cell)) { skip(engine, `cell ${cellName}`, why); return; }
    const left = new Map();
    for (const [c, why] of Object.entries(COLUMN_SKIPS[engine])) left.set(c, why);
    if (cell) for (const l of leaves) {
      for (const enc of dataEncodings(cell, l)) {
        for (const [pred, why] of ENCODING_SKIPS[engine]) if (pred(l, enc) && !left.has(l.top)) left.set(l.top, why);
      }
    }
    for (const [c, why] of left) skip(engine, `column ${c}`, why, 'columnSkips');
    const cols = topCols.filter((c) => !left.has(c));
    let msg;
    try {
      const rows = await READERS[engine](file, cols);
      for (const [c, [fn, note]] of Object.entries(NORMALIZE[engine])) {
        if (!cols.includes(c)) continue;
        notes.add(`${engine} | column ${c} | NOTE: ${note}`);
        for (const r of rows) if (c in r && r[c] !== null) r[c] = fn(r[c]);
      }
      msg = compareEngine(expected, rows, cols);
    } catch (e) { msg = `read failed: ${String(e.message ?? e).split('\n')[0]}`; }
    outcome(engine, cellName, msg);
  }

  // the flat source (top-level primitive columns only) for DuckDB's bloom probes,
  // which count leaves as top-level columns
  const flatSrc = { columns: src.columns.filter((c) => !['list', 'struct', 'map'].includes(c.type.kind)), rows: src.rows };
  const flatLeaves = leavesOf(flatSrc);
  const flatPaths = new Set(flatLeaves.map((l) => l.path));
  const flatFile = path.join(dir, 'w-source-flat.parquet');
  await writeSource(flatSrc, flatFile);

  // 0. every peer reads the source as parq does (the reader direction for this file)
  for (const engine of engines) await engineCase(engine, 'source', srcFile, null);

  // 1. the matrix (INTEROP_SHARE=K/N: the cells i with i % N == K)
  const share = shareOf('INTEROP_SHARE');
  const cells = buildCells(leaves).filter((_, i) => share.keeps(i));
  const shareNote = share.note('cells');
  if (shareNote) log(`write: ${shareNote}`);
  const cellFile = (c) => path.join(dir, `w-${c.name}.parquet`);
  // rewrite + cat run in a child process: start the next cell's while this one is compared
  const produce = async (c) => {
    const file = cellFile(c);
    try {
      await run(parq, ['rewrite', srcFile, file, ...c.args], { maxBuffer: 1 << 26 });
    } catch (e) {
      return { error: `parq rewrite ${c.args.join(' ')} failed (exit ${e.code}): ${String(e.stderr).trim().split('\n')[0]}` };
    }
    try {
      return { file, text: (await run(parq, ['cat', '--format=jsonl', file], { maxBuffer: 1 << 30 })).stdout };
    } catch (e) {
      return { file, error: `parq cat failed (exit ${e.code}): ${String(e.stderr).trim().split('\n')[0]}` };
    }
  };
  let next = produce(cells[0]);
  for (let i = 0; i < cells.length; i++) {
    const cell = cells[i];
    const made = await next;
    if (i + 1 < cells.length) next = produce(cells[i + 1]);
    if (!made.file) { outcome('parq', cell.name, made.error); continue; }
    outcome('parq', cell.name, made.error ?? (made.text === srcText ? null : firstTextDiff(srcText, made.text)));
    for (const engine of engines) await engineCase(engine, cell.name, made.file, cell);
    if (!only || only.includes('duckdb')) {
      outcome('duckdb-metadata', cell.name, await checkMetadata({ file: made.file, cell, src, leaves }));
      if (cell.bloom.length) {
        const flatOut = path.join(dir, `w-${cell.name}-flat.parquet`);
        let msg;
        try {
          await run(parq, ['rewrite', flatFile, flatOut, ...cellArgs(cell, flatPaths)]);
          msg = await checkBloom({ engine: 'duckdb-bloom', flatFile: flatOut, cell, flatSrc, flatLeaves });
        } catch (e) { msg = `flat rewrite or probe failed: ${String(e.stderr ?? e.message).trim().split('\n')[0]}`; }
        outcome('duckdb-bloom', cell.name, msg);
        for (const l of flatLeaves) {
          const why = cell.bloom.includes(l.path) && duckBloomSkip(l);
          if (why) skip('duckdb-bloom', `column ${l.path}`, why, 'columnSkips');
        }
        for (const p of cell.bloom) if (!flatPaths.has(p)) skip('duckdb-bloom', `column ${p}`, DUCK_BLOOM_SKIP.nested, 'columnSkips');
        if (!process.env.INTEROP_KEEP) fs.rmSync(flatOut, { force: true });
      }
    }
    if (cell.bloom.length) outcome('hyparquet-bloom', cell.name, await checkBloom({ engine: 'hyparquet-bloom', file: made.file, cell, src, leaves }));
    if (!process.env.INTEROP_KEEP) fs.rmSync(made.file, { force: true });
  }

  for (const n of notes) log(n);
  for (const [k, n] of skipAgg) log(`${k}${n > 1 ? ` (x${n})` : ''}`);
  log(`write: ${cells.length} cells; source ${src.rows.length} rows, ${src.columns.length} columns, ${leaves.length} leaves`);
  for (const [n, s] of Object.entries(res.perEngine)) {
    log(`write ${n}: ${s.passed} passed, ${s.failed} failed, ${s.skipped} cells skipped, ${s.columnSkips} column skips`);
  }
  log(`write: ${res.passed} passed, ${res.failed} failed, ${res.skipped} skipped in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  return res;
}

// Writer direction: what the footer of a file parq wrote says, checked through
// DuckDB's parquet_metadata (codec, encodings, statistics, bloom filter
// offsets) against what the cell asked for and what the data holds; and its
// bloom filters, probed with DuckDB's parquet_bloom_probe and independently
// with hyparquet's split-block bloom filter code and xxhash64 on the values'
// PLAIN bytes.
import fs from 'node:fs';
import { parquetMetadata } from 'hyparquet';
import { readBloomFilter, sbbfContains } from './node_modules/hyparquet/src/bloom.js';
import { xxhash64 } from './node_modules/hyparquet/src/xxhash.js';
import { unconvertFloat16 } from './node_modules/hyparquet-writer/src/unconvert.js';
import { duckdb } from './readers.mjs';
import { fmtDate, fmtDecimal, fmtTimestamp, fmtTime } from './canonical.mjs';
import { defaultEncoding } from './wmatrix.mjs';

const q = (s) => `'${s.replace(/'/g, "''")}'`;
const te = new TextEncoder();
const DICT = new Set(['RLE_DICTIONARY', 'PLAIN_DICTIONARY']);

// ---------------------------------------------------------------- values of a leaf
// The values of leaf `l` row by row: [{ row, v }] where v is null for every entry
// below the leaf's max definition level (a null or empty list counts one entry).
export function leafEntries(src, l) {
  const parts = l.path.split('.');
  const col = src.columns.find((c) => c.name === parts[0]);
  const out = [];
  const walk = (t, v, k, row) => {
    if (v === null || v === undefined) { out.push({ row, v: null }); return; }
    switch (t.kind) {
      case 'list':
        if (!v.length) { out.push({ row, v: null }); return; }
        for (const x of v) walk(t.item, x, k + 2, row); // ".list.element"
        return;
      case 'struct': {
        const name = parts[k];
        walk(t.fields.find(([n]) => n === name)[1], v[name], k + 1, row);
        return;
      }
      case 'map': {
        if (!v.length) { out.push({ row, v: null }); return; }
        const isKey = parts[k + 1] === 'key';
        for (const [key, val] of v) walk(isKey ? t.key : t.value, isKey ? key : val, k + 2, row);
        return;
      }
      default: out.push({ row, v });
    }
  };
  src.rows.forEach((r, i) => walk(col.type, r[col.name], 1, i));
  return out;
}

// ---------------------------------------------------------------- order and text of statistics
const bytesOf = (l, v) => (l.kind === 'string' || l.kind === 'enum' || l.kind === 'json' ? te.encode(v) : v);
const cmpBytes = (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b));
const big = (v) => BigInt(v);

// [compare(a, b), toCanonical(value) -> comparable string, fromDuck(text) -> comparable string] per kind
function statKind(l) {
  const t = l.type;
  switch (l.kind) {
    case 'bool': return { cmp: (a, b) => Number(a) - Number(b), exp: String, duck: (s) => s };
    case 'int': return { cmp: (a, b) => (big(a) < big(b) ? -1 : big(a) > big(b) ? 1 : 0), exp: (v) => String(v), duck: (s) => s };
    case 'decimal': return { cmp: (a, b) => (a < b ? -1 : a > b ? 1 : 0), exp: (v) => fmtDecimal(v, t.scale), duck: (s) => s };
    case 'date': return { cmp: (a, b) => a - b, exp: fmtDate, duck: (s) => s };
    case 'timestamp': return { cmp: (a, b) => (a < b ? -1 : a > b ? 1 : 0), exp: (v) => fmtTimestamp(v, t.unit, t.utc),
      duck: (s) => duckTime(s.replace(' ', 'T').replace(/\+00$/, ''), t.unit) + (t.utc ? 'Z' : '') };
    case 'time': return { cmp: (a, b) => (a < b ? -1 : a > b ? 1 : 0), exp: (v) => fmtTime(v, t.unit), duck: (s) => duckTime(s, t.unit) };
    case 'string': case 'enum': case 'json':
      return { cmp: (a, b) => cmpBytes(te.encode(a), te.encode(b)), exp: (v) => v, duck: (s) => s };
    case 'binary': case 'fixed':
      return { cmp: cmpBytes, exp: (v) => Buffer.from(v).toString('hex'), duck: (s) => duckBlob(s).toString('hex') };
    case 'uuid': return { cmp: cmpBytes, exp: (v) => uuidText(v), duck: (s) => s };
    case 'float': case 'float16': {
      const f = l.kind === 'float' && t.bits === 32 ? Math.fround : (x) => x;
      return { float: true, cmp: (a, b) => a - b, exp: (v) => numText(f(v)), duck: (s) => numText(f(duckNum(s))) };
    }
  }
  return null; // interval: no order, no statistics
}
const numText = (x) => (Object.is(x, -0) ? '-0' : String(x));
const duckNum = (s) => (/^-?inf/i.test(s) ? (s.startsWith('-') ? -Infinity : Infinity) : /nan/i.test(s) ? NaN : Number(s));
const DIG = { ms: 3, us: 6, ns: 9 };
function duckTime(s, unit) { // "HH:MM:SS[.f]" (maybe after a date) -> fraction padded to the unit
  const m = /^(.*\d\d:\d\d:\d\d)(?:\.(\d+))?$/.exec(s);
  if (!m) return s;
  return `${m[1]}.${(m[2] ?? '').padEnd(DIG[unit], '0')}`;
}
function duckBlob(s) { // DuckDB's BLOB text: \xHH escapes, other characters as themselves
  const out = [];
  for (let i = 0; i < s.length; i++) {
    if (s[i] === '\\' && s[i + 1] === 'x' && /^[0-9A-Fa-f]{2}$/.test(s.slice(i + 2, i + 4))) { out.push(parseInt(s.slice(i + 2, i + 4), 16)); i += 3; }
    else out.push(...te.encode(s[i]));
  }
  return Buffer.from(out);
}
function uuidText(b) {
  const h = Buffer.from(b).toString('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}

// min, max (canonical text), nulls of entries in rows [a, b)
function expectedStats(l, entries, a, b, sk) {
  let nulls = 0, nans = 0, min, max, any = false;
  for (const { row, v } of entries) {
    if (row < a || row >= b) continue;
    if (v === null) { nulls++; continue; }
    if (sk.float && Number.isNaN(v)) { nans++; continue; }
    if (!any) { min = max = v; any = true; continue; }
    if (sk.cmp(v, min) < 0) min = v;
    if (sk.cmp(v, max) > 0) max = v;
  }
  if (sk.float && any) { // zeros: min is -0, max is +0
    if (min === 0) min = -0;
    if (max === 0) max = 0;
  }
  return { nulls, nans, any, min: any ? sk.exp(min) : null, max: any ? sk.exp(max) : null, rawMin: min, rawMax: max };
}

// leaves whose statistics are checked: every top-level primitive leaf and a few nested ones
const NESTED_STATS = new Set(['st.a', 'st.b', 'l_i32.list.element', 'm.key_value.key', 'nested.list.element.vals.list.element']);
// DuckDB reads TIMESTAMP(NANOS, UTC) as microseconds, its statistics too
const DUCK_STATS_SKIP = new Set(['ts_ns_utc']);

// ---------------------------------------------------------------- parquet_metadata
export async function checkMetadata({ file, cell, src, leaves }) {
  const c = await duckdb();
  let rows;
  try {
    rows = (await c.runAndReadAll(`SELECT row_group_id, row_group_num_rows, path_in_schema, compression, encodings, stats_min_value,
      stats_max_value, stats_null_count, bloom_filter_offset FROM parquet_metadata(${q(file)}) ORDER BY row_group_id, column_id`)).getRowObjects();
  } catch (e) { return `parquet_metadata failed: ${String(e.message).split('\n')[0]}`; }
  const problems = [];
  const bad = (m) => { if (problems.length < 6) problems.push(m); };
  const byPath = new Map(leaves.map((l) => [l.path, l]));
  const codec = cell.codec.split(':')[0].toUpperCase();
  const dictOn = cell.dict !== 'off';
  // row groups
  const rg = new Map();
  for (const r of rows) rg.set(Number(r.row_group_id), Number(r.row_group_num_rows));
  const sizes = [...rg.keys()].sort((x, y) => x - y).map((k) => rg.get(k));
  const total = sizes.reduce((x, y) => x + y, 0);
  if (total !== src.rows.length) bad(`row groups hold ${total} rows, not ${src.rows.length}`);
  if (!cell.extra?.includes('--row-group-bytes')) {
    const R = cell.rowGroupRows ?? 600;
    const want = Array.from({ length: Math.ceil(src.rows.length / R) }, (_, k) => Math.min(R, src.rows.length - k * R));
    if (sizes.join() !== want.join()) bad(`row group sizes ${sizes.join()} (want ${want.join()})`);
  } else if (sizes.length < 2) bad(`--row-group-bytes made ${sizes.length} row group(s)`);
  const starts = [];
  sizes.reduce((acc, n) => { starts.push(acc); return acc + n; }, 0);
  const entriesCache = new Map();
  let fellBack = false;
  for (const r of rows) {
    const p = String(r.path_in_schema).split(', ').join('.');
    const l = byPath.get(p);
    if (!l) { bad(`unknown column ${p}`); continue; }
    const g = Number(r.row_group_id);
    const where = `${p} rg${g}`;
    if (r.compression !== codec) bad(`${where}: codec ${r.compression}, not ${codec}`);
    // encodings
    const encs = new Set(String(r.encodings).split(', '));
    const asked = cell.enc[p];
    const dataEnc = asked ?? defaultEncoding(l.physical, cell.pv);
    const dictionary = !asked && dictOn && l.physical !== 'BOOLEAN';
    const hasDict = [...encs].some((e) => DICT.has(e));
    const allowed = new Set(['RLE', dataEnc, ...(dictionary ? ['PLAIN', 'RLE_DICTIONARY', 'PLAIN_DICTIONARY'] : [])]);
    for (const e of encs) if (!allowed.has(e)) bad(`${where}: encoding ${e} in [${[...encs]}], expected only ${[...allowed]}`);
    if (dictionary && !hasDict) bad(`${where}: no dictionary encoding in [${[...encs]}]`);
    if (!dictionary && !encs.has(dataEnc)) bad(`${where}: ${dataEnc} missing from [${[...encs]}]`);
    if (dictionary && cell.dict === 'on' && dataEnc !== 'PLAIN' && dataEnc !== 'RLE' && encs.has(dataEnc)) bad(`${where}: fell back to ${dataEnc} under the default dictionary limit`);
    if (hasDict && encs.has(dataEnc) && dataEnc !== 'PLAIN' && dataEnc !== 'RLE') fellBack = true;
    // bloom filter offsets
    const wantBloom = cell.bloom.includes(p);
    if (wantBloom !== (r.bloom_filter_offset !== null)) bad(`${where}: bloom filter offset ${r.bloom_filter_offset} (asked: ${wantBloom})`);
    // statistics
    if (!cell.stats) {
      if (r.stats_null_count !== null || r.stats_min_value !== null) bad(`${where}: statistics written under --stats off`);
      continue;
    }
    if (!(p === l.top || NESTED_STATS.has(p)) || DUCK_STATS_SKIP.has(p)) continue;
    const sk = statKind(l);
    if (!entriesCache.has(p)) entriesCache.set(p, leafEntries(src, l));
    const want = expectedStats(l, entriesCache.get(p), starts[g], starts[g] + sizes[g], sk ?? { cmp: () => 0, exp: String });
    const nulls = r.stats_null_count === null ? null : Number(r.stats_null_count);
    if (nulls !== want.nulls) bad(`${where}: null_count ${nulls}, expected ${want.nulls}`);
    if (!sk) { // INTERVAL: no sort order, so no bounds
      if (r.stats_min_value !== null || r.stats_max_value !== null) bad(`${where}: bounds on a column without sort order`);
      continue;
    }
    const gotMin = r.stats_min_value === null ? null : sk.duck(String(r.stats_min_value));
    const gotMax = r.stats_max_value === null ? null : sk.duck(String(r.stats_max_value));
    if (sk.float && gotMin === null && gotMax === null && (want.nans > 0 || !Number.isFinite(want.rawMin) || !Number.isFinite(want.rawMax))) continue; // DuckDB shows no float bounds then
    if (gotMin !== want.min || gotMax !== want.max) bad(`${where}: min/max ${gotMin}/${gotMax}, expected ${want.min}/${want.max}`);
  }
  if (cell.dict === 'fallback' && cell.pv === 2 && !fellBack) bad('no column chunk fell back from the dictionary under --dictionary-bytes');
  return problems.length ? problems.join('; ') : null;
}

// ---------------------------------------------------------------- bloom filters
// the PLAIN bytes of a value of leaf l
function plainBytes(l, v) {
  const b = (n) => new DataView(new ArrayBuffer(n));
  switch (l.physical) {
    case 'INT32': { const d = b(4); d.setInt32(0, l.kind === 'date' ? v : Number(BigInt.asIntN(32, BigInt(v))), true); return new Uint8Array(d.buffer); }
    case 'INT64': { const d = b(8); d.setBigInt64(0, BigInt.asIntN(64, BigInt(v)), true); return new Uint8Array(d.buffer); }
    case 'FLOAT': { const d = b(4); d.setFloat32(0, v, true); return new Uint8Array(d.buffer); }
    case 'DOUBLE': { const d = b(8); d.setFloat64(0, v, true); return new Uint8Array(d.buffer); }
    case 'BYTE_ARRAY':
      if (l.kind === 'decimal') return decBytes(BigInt(v), null);
      return l.kind === 'string' || l.kind === 'enum' || l.kind === 'json' ? te.encode(v) : v;
    case 'FIXED_LEN_BYTE_ARRAY':
      if (l.kind === 'decimal') return decBytes(BigInt(v), l.el.type_length);
      if (l.kind === 'float16') return unconvertFloat16(v);
      return v;
  }
  throw new Error('plainBytes ' + l.physical);
}
function decBytes(v, width) { // big-endian two's complement, minimal unless fixed
  const out = [];
  for (;;) {
    out.unshift(Number(BigInt.asUintN(8, v)));
    v >>= 8n;
    if (width ? out.length === width : (v === 0n && !(out[0] & 0x80)) || (v === -1n && out[0] & 0x80)) break;
  }
  return Uint8Array.from(out);
}
const keyOf = (bytes) => Buffer.from(bytes).toString('hex');

// deterministic values of leaf l's type that the column does not hold
function absentValues(l, present, n, seed) {
  let x = seed >>> 0 || 1;
  const r = () => { x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0; return x / 4294967296; };
  const out = [];
  const t = l.type;
  for (let guard = 0; out.length < n && guard < n * 50; guard++) {
    let v;
    switch (l.kind) {
      case 'int': v = t.bits === 64 ? BigInt.asIntN(64, BigInt(Math.floor(r() * 2 ** 32)) << 32n | BigInt(Math.floor(r() * 2 ** 32)))
        : t.signed ? Math.floor(r() * 2 ** t.bits) - 2 ** (t.bits - 1) : Math.floor(r() * 2 ** t.bits); break;
      case 'float16': v = Math.round((r() - 0.5) * 2000) / 8; break;
      case 'float': v = t.bits === 32 ? Math.fround((r() - 0.5) * 1e6) : (r() - 0.5) * 1e6; break;
      case 'decimal': v = BigInt(Math.floor((r() - 0.5) * 1e9)); break;
      case 'date': v = Math.floor(r() * 80000) - 30000; break;
      case 'timestamp': { const us = BigInt(Math.floor((r() - 0.5) * 4e15)); v = t.unit === 'ms' ? us / 1000n : t.unit === 'us' ? us : us * 1000n + 1n; break; }
      case 'time': { const us = BigInt(Math.floor(r() * 86400e6)); v = t.unit === 'ms' ? us / 1000n : t.unit === 'us' ? us : us * 1000n + 1n; break; }
      case 'string': case 'enum': v = `absent-${Math.floor(r() * 1e9).toString(36)}`; break;
      case 'json': v = `{"absent":${Math.floor(r() * 1e9)}}`; break;
      case 'binary': v = Uint8Array.from({ length: 3 + Math.floor(r() * 9) }, () => Math.floor(r() * 256)); break;
      case 'fixed': case 'uuid': v = Uint8Array.from({ length: l.el.type_length }, () => Math.floor(r() * 256)); break;
      default: return out;
    }
    if (l.physical === 'INT64' && l.kind === 'int' && !t.signed) v = BigInt.asUintN(64, BigInt(v));
    if (!present.has(keyOf(plainBytes(l, v)))) out.push(v);
  }
  return out;
}

// DuckDB literal of a value of leaf l (null: DuckDB cannot probe it right)
function duckLiteral(l, v) {
  const t = l.type;
  switch (l.kind) {
    case 'int': return `${v}::${t.signed ? '' : 'U'}${{ 8: 'TINYINT', 16: 'SMALLINT', 32: 'INTEGER', 64: 'BIGINT' }[t.bits]}`;
    case 'float': return Number.isNaN(v) ? null : `'${Object.is(v, -0) ? '-0.0' : v === Infinity ? 'inf' : v === -Infinity ? '-inf' : v}'::${t.bits === 32 ? 'FLOAT' : 'DOUBLE'}`;
    case 'string': case 'enum': case 'json': return q(v);
    case 'float16': return Number.isNaN(v) ? null : `'${Object.is(v, -0) ? '-0.0' : v === Infinity ? 'inf' : v === -Infinity ? '-inf' : v}'::FLOAT`;
    case 'date': return `DATE '${fmtDate(v)}'`;
    case 'timestamp': return `'${fmtTimestamp(v, t.unit, false).replace('T', ' ')}${t.utc ? '+00' : ''}'::${t.utc ? 'TIMESTAMPTZ' : 'TIMESTAMP'}`;
    case 'time': return `'${fmtTime(v, t.unit)}'::TIME`;
    case 'uuid': return `'${uuidText(v)}'::UUID`;
    case 'binary': case 'fixed': return `from_hex('${Buffer.from(v).toString('hex')}')`;
  }
  return null;
}
// What DuckDB's parquet_bloom_probe gets wrong, seen on files DuckDB wrote itself too
export const DUCK_BLOOM_SKIP = {
  decimal: 'DuckDB parquet_bloom_probe: DECIMAL probes are wrong (also on files DuckDB writes)',
  ts_ms: 'DuckDB parquet_bloom_probe hashes TIMESTAMP(MILLIS) probes as microseconds (also on files DuckDB writes)',
  ts_ms_utc: 'DuckDB parquet_bloom_probe hashes TIMESTAMP(MILLIS) probes as microseconds (also on files DuckDB writes)',
  ts_ns_utc: 'DuckDB reads TIMESTAMP(NANOS, UTC) as microseconds',
  t_ms: 'DuckDB parquet_bloom_probe hashes TIME(MILLIS) probes as microseconds',
  float16: 'DuckDB parquet_bloom_probe hashes FLOAT16 probes as FLOAT',
  uuid: 'DuckDB parquet_bloom_probe never excludes a UUID (also on files DuckDB writes)',
  binary: 'DuckDB parquet_bloom_probe misses BLOB values that are not ASCII text (also on files DuckDB writes)',
  fixed: 'DuckDB parquet_bloom_probe misses BLOB values that are not ASCII text (also on files DuckDB writes)',
  nested: 'DuckDB parquet_bloom_probe takes top-level columns only (and counts leaves as top-level columns: probes run on a flat file)',
};
export function duckBloomSkip(l) {
  if (l.path !== l.top) return DUCK_BLOOM_SKIP.nested;
  return DUCK_BLOOM_SKIP[l.path] ?? DUCK_BLOOM_SKIP[l.kind] ?? null;
}

const SAMPLE_PRESENT = 300; // DuckDB probes per column (hyparquet's code probes every value)
const ABSENT = 1000;

// Every written value must pass its row group's filter, and most absent values be
// rejected. `flatFile`: the same cell written from the flat source (for DuckDB).
export async function checkBloom({ file, flatFile, cell, src, flatSrc, leaves, flatLeaves, engine }) {
  const problems = [];
  const bad = (m) => { if (problems.length < 6) problems.push(m); };
  if (engine === 'hyparquet-bloom') {
    const buf = fs.readFileSync(file);
    const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
    const md = parquetMetadata(ab);
    const starts = [];
    md.row_groups.reduce((acc, g) => { starts.push(acc); return acc + Number(g.num_rows); }, 0);
    for (const p of cell.bloom) {
      const l = leaves.find((x) => x.path === p);
      const filters = md.row_groups.map((g) => {
        const cc = g.columns.find((c) => c.meta_data.path_in_schema.join('.') === p).meta_data;
        if (cc.bloom_filter_offset === undefined) return null;
        return readBloomFilter({ view: new DataView(ab), offset: Number(cc.bloom_filter_offset) });
      });
      if (filters.some((f) => !f)) { bad(`${p}: a row group has no bloom filter`); continue; }
      const present = new Set();
      let miss = 0, first = null;
      for (const { row, v } of leafEntries(src, l)) {
        if (v === null) continue;
        const bytes = plainBytes(l, v);
        present.add(keyOf(bytes));
        const g = starts.findLastIndex((s) => s <= row);
        if (!sbbfContains(filters[g].blocks, xxhash64(bytes))) { miss++; first ??= `row ${row + 1} value ${keyOf(bytes)}`; }
      }
      if (miss) bad(`${p}: ${miss} written values not in their row group's filter (first: ${first})`);
      let rejected = 0, probed = 0;
      for (const v of absentValues(l, present, 200, 77 + p.length)) {
        const h = xxhash64(plainBytes(l, v));
        for (const f of filters) { probed++; if (!sbbfContains(f.blocks, h)) rejected++; }
      }
      if (probed < 300 || rejected / probed < 0.9) bad(`${p}: only ${rejected} of ${probed} absent-value probes rejected`);
    }
    return problems.length ? problems.join('; ') : null;
  }
  // DuckDB, on the flat file
  const c = await duckdb();
  const meta = (await c.runAndReadAll(`SELECT row_group_id, row_group_num_rows FROM parquet_metadata(${q(flatFile)}) WHERE column_id = 0 ORDER BY row_group_id`)).getRows();
  const starts = [];
  meta.reduce((acc, [, n]) => { starts.push(acc); return acc + Number(n); }, 0);
  const probeCols = cell.bloom.map((p) => flatLeaves.find((l) => l.path === p)).filter((l) => l && !duckBloomSkip(l));
  const absentPer = Math.ceil(ABSENT / probeCols.length);
  for (const l of probeCols) {
    // distinct values -> the row groups that hold them
    const groups = new Map();
    for (const { row, v } of leafEntries(flatSrc, l)) {
      if (v === null || (l.kind === 'float' && Number.isNaN(v))) continue;
      const k = keyOf(plainBytes(l, v));
      if (!groups.has(k)) groups.set(k, { v, g: new Set() });
      groups.get(k).g.add(starts.findLastIndex((s) => s <= row));
    }
    const all = [...groups.values()];
    const step = Math.max(1, Math.floor(all.length / SAMPLE_PRESENT));
    const sample = all.filter((_, i) => i % step === 0).slice(0, SAMPLE_PRESENT);
    const absent = absentValues(l, new Set(groups.keys()), absentPer, 991 + l.path.length);
    const probes = [...sample.map((s) => ({ v: s.v, g: s.g })), ...absent.map((v) => ({ v, g: null }))];
    const parts = probes.map((pr, i) => `SELECT ${i} AS k, row_group_id, bloom_filter_excludes FROM parquet_bloom_probe(${q(flatFile)}, ${q(l.path)}, ${duckLiteral(l, pr.v)})`);
    let res = [];
    try {
      for (let s = 0; s < parts.length; s += 400) res.push(...(await c.runAndReadAll(parts.slice(s, s + 400).join(' UNION ALL '))).getRows());
    } catch (e) { bad(`${l.path}: parquet_bloom_probe failed: ${String(e.message).split('\n')[0]}`); continue; }
    let miss = 0, first = null, rejected = 0, probed = 0;
    for (const [k, g, excl] of res) {
      const pr = probes[Number(k)];
      if (pr.g) { if (pr.g.has(Number(g)) && excl) { miss++; first ??= `${duckLiteral(l, pr.v)} in row group ${g}`; } }
      else { probed++; if (excl) rejected++; }
    }
    if (miss) bad(`${l.path}: ${miss} written values excluded by parquet_bloom_probe (first: ${first})`);
    if (probed < 100 || rejected / probed < 0.9) bad(`${l.path}: parquet_bloom_probe rejected only ${rejected} of ${probed} absent-value probes`);
  }
  return problems.length ? problems.join('; ') : null;
}

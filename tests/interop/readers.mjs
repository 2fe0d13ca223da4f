// Each engine reads a Parquet file back into canonical rows (FORMAT.md values).
import fs from 'node:fs';
import zlib from 'node:zlib';
import * as A from 'apache-arrow';
import { compressors as hyparquetCompressors } from 'hyparquet-compressors';
import { decompressLzo } from './lzo.mjs';
import { duckTimeHints, duckValue } from './duck_values.mjs';
import { fmtDate, fmtTimestamp, fmtTime, fmtDecimal, b64, fmtFloat, fmtInt, convertUnit } from './canonical.mjs';

const utf8 = new TextDecoder('utf-8'); // replaces invalid sequences with U+FFFD per maximal subpart

// ---------------------------------------------------------------- Arrow
const ARROW_UNIT = { [A.TimeUnit.MILLISECOND]: 'ms', [A.TimeUnit.MICROSECOND]: 'us', [A.TimeUnit.NANOSECOND]: 'ns' };

function arrowValue(data, i) {
  if (!data.getValid(i)) return null;
  const t = data.type, j = data.offset + i;
  switch (t.typeId) {
    case A.Type.Null: return null;
    case A.Type.Bool: return ((data.values[j >> 3] >> (j & 7)) & 1) === 1;
    case A.Type.Int: return fmtInt(data.values[j]);
    case A.Type.Float: return fmtFloat(t.precision === A.Precision.HALF ? A.util.uint16ToFloat64(data.values[j]) : data.values[j]);
    case A.Type.Decimal: {
      const words = t.bitWidth / 32;
      let v = 0n;
      for (let w = words - 1; w >= 0; w--) v = (v << 32n) | BigInt(data.values[j * words + w]);
      return fmtDecimal(BigInt.asIntN(t.bitWidth, v), t.scale);
    }
    case A.Type.Utf8: case A.Type.LargeUtf8: case A.Type.Binary: case A.Type.LargeBinary: {
      const s = Number(data.valueOffsets[j]), e = Number(data.valueOffsets[j + 1]);
      const bytes = data.values.subarray(s, e);
      return (t.typeId === A.Type.Utf8 || t.typeId === A.Type.LargeUtf8) ? utf8.decode(bytes) : b64(bytes);
    }
    case A.Type.Utf8View: case A.Type.BinaryView: {
      const v = A.makeVector(data).get(i);
      return t.typeId === A.Type.Utf8View ? v : b64(v);
    }
    case A.Type.FixedSizeBinary: return b64(data.values.subarray(j * t.byteWidth, (j + 1) * t.byteWidth));
    case A.Type.Date:
      return t.unit === A.DateUnit.DAY ? fmtDate(data.values[j]) : fmtDate(Number(BigInt(data.values[j]) / 86400000n));
    case A.Type.Timestamp: {
      const tz = t.timezone;
      return fmtTimestamp(data.values[j], ARROW_UNIT[t.unit], tz !== null && tz !== undefined && tz !== '');
    }
    case A.Type.Time: return fmtTime(data.values[j], ARROW_UNIT[t.unit]);
    case A.Type.List: case A.Type.LargeList: case A.Type.Map: {
      const s = Number(data.valueOffsets[j]), e = Number(data.valueOffsets[j + 1]);
      const child = data.children[0];
      const out = [];
      for (let k = s; k < e; k++) out.push(arrowValue(child, k));
      return out; // a Map's entries struct already reads as {key, value}
    }
    case A.Type.FixedSizeList: {
      const out = [];
      for (let k = j * t.listSize; k < (j + 1) * t.listSize; k++) out.push(arrowValue(data.children[0], k));
      return out;
    }
    case A.Type.Struct: {
      const o = {};
      t.children.forEach((f, k) => { o[f.name] = arrowValue(data.children[k], j); });
      return o;
    }
    case A.Type.Dictionary: {
      const idx = Number(data.values[j]);
      return vectorValue(data.dictionary, idx);
    }
    default: throw new Error(`arrow type ${t} not handled`);
  }
}

function vectorValue(vec, idx) {
  for (const d of vec.data) { if (idx < d.length) return arrowValue(d, idx); idx -= d.length; }
  throw new Error('index out of range');
}

// Struct children in arrow JS carry the parent's offset separately: normalise by
// reading struct fields at parent offset + i (done above through j).
// `columns` (optional): only these top-level columns.
export function arrowRows(table, columns) {
  const names = table.schema.fields.map((f) => f.name);
  const rows = Array.from({ length: table.numRows }, () => ({}));
  names.forEach((name, c) => {
    if (columns && !columns.includes(name)) return;
    const vec = table.getChildAt(c);
    let r = 0;
    for (const d of vec.data) for (let i = 0; i < d.length; i++) rows[r++][name] = arrowValue(d, i);
  });
  return rows;
}

// ---------------------------------------------------------------- parquet-wasm (arrow-rs)
// `columns` (optional): only these top-level columns.
export async function readParquetWasm(file, columns) {
  const PW = await import('parquet-wasm');
  // (readParquet's own `columns` option is ignored in 0.8: every column is read, the others dropped here)
  const t = PW.readParquet(new Uint8Array(fs.readFileSync(file)));
  return arrowRows(A.tableFromIPC(t.intoIPCStream()), columns);
}

// ---------------------------------------------------------------- Polars
export async function readPolars(file, columns) {
  const pl = (await import('nodejs-polars')).default;
  const df = pl.readParquet(file, { parallel: 'none', ...(columns ? { columns } : {}) });
  return arrowRows(A.tableFromIPC(df.writeIPCStream()));
}

// ---------------------------------------------------------------- DuckDB
let duck;
async function duckConn() {
  if (!duck) {
    const { DuckDBInstance } = await import('@duckdb/node-api');
    const inst = await DuckDBInstance.create(':memory:', { threads: '1' });
    duck = await inst.connect();
  }
  return duck;
}
export async function duckdb() { return duckConn(); }

const q = (s) => `'${s.replace(/'/g, "''")}'`;

export async function readDuckDB(file, columns) {
  const c = await duckConn();
  const hints = await duckTimeHints(c, file);
  const sel = columns ? columns.map((n) => `"${n.replace(/"/g, '""')}"`).join(', ') : '*';
  const r = await c.runAndReadAll(`SELECT ${sel} FROM read_parquet(${q(file)})`);
  const names = r.columnNames();
  return r.getRows().map((row) => {
    const o = {};
    names.forEach((n, k) => { o[n] = duckValue(row[k], hints[n]); });
    return o;
  });
}

// ---------------------------------------------------------------- hyparquet
// ZSTD, LZ4 (Hadoop framing or bare) and LZ4_RAW from hyparquet-compressors, LZO from lzo.mjs
export const hyCompressors = {
  ZSTD: hyparquetCompressors.ZSTD,
  LZ4: hyparquetCompressors.LZ4,
  LZ4_RAW: hyparquetCompressors.LZ4_RAW,
  LZO: decompressLzo,
  GZIP: (input, outputLength) => new Uint8Array(zlib.gunzipSync(input)),
  BROTLI: (input, outputLength) => new Uint8Array(zlib.brotliDecompressSync(input)),
};

function hyLeafMap(metadata) {
  // walks the flat schema into a tree of elements
  const schema = metadata.schema;
  let k = 1;
  function node() {
    const el = schema[k++];
    const children = [];
    for (let c = 0; c < (el.num_children ?? 0); c++) children.push(node());
    return { el, children };
  }
  const top = [];
  for (let c = 0; c < schema[0].num_children; c++) top.push(node());
  return top;
}

// hyparquet's parsers keep raw integers for times; values are formatted using the schema element.
const tagged = (tag) => (x) => ({ [tag]: x });
const HY_PARSERS = {
  timestampFromMilliseconds: (v) => ({ __ts: BigInt(v), unit: 'ms' }),
  timestampFromMicroseconds: (v) => ({ __ts: BigInt(v), unit: 'us' }),
  timestampFromNanoseconds: (v) => ({ __ts: BigInt(v), unit: 'ns' }),
  dateFromDays: (d) => ({ __date: d }),
  jsonFromBytes: (b) => b && utf8.decode(b), // the text as stored, not parsed
};

function hyValue(v, node) {
  if (v === null || v === undefined) return null;
  const el = node.el;
  const lt = el.logical_type, ct = el.converted_type;
  if (node.children.length) {
    if (lt?.type === 'LIST' || ct === 'LIST' || lt?.type === 'MAP' || ct === 'MAP' || ct === 'MAP_KEY_VALUE') {
      // hyparquet already resolves lists to arrays and maps to objects; elements use the leaf node
      const rep = node.children[0];
      const inner = rep.children.length === 1 && !(lt?.type === 'MAP' || ct === 'MAP') ? rep.children[0] : rep;
      if (lt?.type === 'MAP' || ct === 'MAP' || ct === 'MAP_KEY_VALUE') {
        const [kn, vn] = rep.children;
        const entries = v instanceof Map ? [...v.entries()] : Array.isArray(v) ? v.map((e) => [e.key, e.value]) : Object.entries(v);
        return entries.map(([key, value]) => ({ key: hyValue(key, kn), value: vn ? hyValue(value, vn) : null }));
      }
      return v.map((x) => hyValue(x, inner));
    }
    const o = {};
    for (const ch of node.children) o[ch.el.name] = hyValue(v[ch.el.name], ch);
    return o;
  }
  if (el.repetition_type === 'REPEATED' && Array.isArray(v)) return v.map((x) => hyValue(x, { el: { ...el, repetition_type: 'OPTIONAL' }, children: [] }));
  if (v && v.__ts !== undefined) {
    const utc = lt?.type === 'TIMESTAMP' ? !!lt.isAdjustedToUTC : el.type === 'INT96' ? false : true;
    const unit = lt?.type === 'TIMESTAMP' ? { MILLIS: 'ms', MICROS: 'us', NANOS: 'ns' }[lt.unit] : v.unit;
    return fmtTimestamp(convertUnit(v.__ts, v.unit, unit), unit, utc);
  }
  if (v && v.__date !== undefined) return fmtDate(v.__date);
  if (ct === 'DECIMAL' || lt?.type === 'DECIMAL') {
    const scale = el.scale ?? lt?.scale ?? 0;
    if (typeof v === 'number') {
      // hyparquet decodes decimals to float64: exact only while precision <= 15
      return fmtDecimal(BigInt(Math.round(v * 10 ** scale)), scale);
    }
    return fmtDecimal(BigInt(v), scale);
  }
  if (lt?.type === 'TIME' || ct === 'TIME_MILLIS' || ct === 'TIME_MICROS') {
    const unit = lt?.type === 'TIME' ? { MILLIS: 'ms', MICROS: 'us', NANOS: 'ns' }[lt.unit] : ct === 'TIME_MILLIS' ? 'ms' : 'us';
    return fmtTime(BigInt(v), unit);
  }
  switch (el.type) {
    case 'BOOLEAN': return v;
    case 'INT32': case 'INT64': {
      const unsigned = (lt?.type === 'INTEGER' && lt.isSigned === false) || /^UINT_/.test(ct ?? '');
      let b = BigInt(v);
      if (unsigned && b < 0n) b = BigInt.asUintN(el.type === 'INT32' ? 32 : 64, b);
      return fmtInt(b);
    }
    case 'FLOAT': case 'DOUBLE': return fmtFloat(v);
    case 'FIXED_LEN_BYTE_ARRAY': if (lt?.type === 'FLOAT16') return fmtFloat(v);
    case 'BYTE_ARRAY': case 'FIXED_LEN_BYTE_ARRAY':
      if (typeof v === 'string') return v;
      return b64(v);
    default: throw new Error('hyparquet type not handled: ' + el.type);
  }
}

export async function readHyparquet(file, columns) {
  const { parquetMetadata, parquetReadObjects } = await import('hyparquet');
  const buf = fs.readFileSync(file);
  const ab = buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.byteLength);
  const metadata = parquetMetadata(ab);
  const rows = await parquetReadObjects({ file: ab, metadata, compressors: hyCompressors, parsers: HY_PARSERS, utf8: false,
    ...(columns ? { columns } : {}) });
  const top = hyLeafMap(metadata).filter((n) => !columns || columns.includes(n.el.name));
  return rows.map((r) => {
    const o = {};
    for (const n of top) o[n.el.name] = hyValue(r[n.el.name], n);
    return o;
  });
}

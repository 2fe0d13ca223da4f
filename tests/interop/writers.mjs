// Each engine writes the data set into Parquet files, one per option set.
// A writer returns a list of cases {engine, options, file} or {engine, options, skip: reason}.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import * as A from 'apache-arrow';
import { arrowTable } from './arrow-build.mjs';
import { fmtDate, fmtTimestamp, fmtTime, fmtDecimal } from './canonical.mjs';
import { duckdb } from './readers.mjs';

// ---------------------------------------------------------------- parquet-wasm (arrow-rs)
export async function writeParquetWasm(ds, dir) {
  const PW = await import('parquet-wasm');
  const ipc = A.tableToIPC(arrowTable(ds), 'stream');
  const cases = [];
  const C = PW.Compression, E = PW.Encoding;
  const codecs = ['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'BROTLI', 'LZ4', 'ZSTD', 'LZ4_RAW', 'LZO'];
  const variants = [];
  for (const codec of codecs) for (const version of ['V1', 'V2']) for (const dict of [true, false]) variants.push({ codec, version, dict });
  // non-default encodings (dictionary off so they are the primary encoding)
  const encSets = {
    delta_ints: { i8: 'DELTA_BINARY_PACKED', i16: 'DELTA_BINARY_PACKED', i32: 'DELTA_BINARY_PACKED', i64: 'DELTA_BINARY_PACKED',
      u8: 'DELTA_BINARY_PACKED', u16: 'DELTA_BINARY_PACKED', u32: 'DELTA_BINARY_PACKED', u64: 'DELTA_BINARY_PACKED',
      dec_9_2: 'DELTA_BINARY_PACKED', dec_18_6: 'DELTA_BINARY_PACKED', d: 'DELTA_BINARY_PACKED', ts_ms: 'DELTA_BINARY_PACKED',
      ts_ns_utc: 'DELTA_BINARY_PACKED', t_ms: 'DELTA_BINARY_PACKED', t_ns: 'DELTA_BINARY_PACKED', id: 'DELTA_BINARY_PACKED',
      'l_i32.list.item': 'DELTA_BINARY_PACKED', 'nested.list.item.vals.list.item': 'DELTA_BINARY_PACKED' },
    byte_stream_split: { f32: 'BYTE_STREAM_SPLIT', f64: 'BYTE_STREAM_SPLIT', i32: 'BYTE_STREAM_SPLIT', i64: 'BYTE_STREAM_SPLIT',
      u64: 'BYTE_STREAM_SPLIT', dec_38_10: 'BYTE_STREAM_SPLIT', 'st.c.x': 'BYTE_STREAM_SPLIT' },
    delta_byte_array: { s: 'DELTA_BYTE_ARRAY', bin: 'DELTA_BYTE_ARRAY', dec_38_10: 'DELTA_BYTE_ARRAY',
      'l_s.list.item': 'DELTA_BYTE_ARRAY', 'm.entries.key': 'DELTA_BYTE_ARRAY' },
    delta_length_byte_array: { s: 'DELTA_LENGTH_BYTE_ARRAY', bin: 'DELTA_LENGTH_BYTE_ARRAY', 'st.b': 'DELTA_LENGTH_BYTE_ARRAY' },
    rle_bool: { b: 'RLE' },
  };
  for (const [name, cols] of Object.entries(encSets)) for (const version of ['V1', 'V2'])
    variants.push({ codec: 'SNAPPY', version, dict: false, encName: name, enc: cols });
  for (const v of variants) {
    const options = `codec=${v.codec} writer=${v.version} dict=${v.dict ? 'on' : 'off'}` + (v.encName ? ` enc=${v.encName}` : '') + ' rowgroup=600 page=4096';
    const file = path.join(dir, `pw-${v.codec}-${v.version}-${v.dict ? 'dict' : 'plain'}${v.encName ? '-' + v.encName : ''}.parquet`);
    try {
      let b = new PW.WriterPropertiesBuilder().setCompression(C[v.codec]).setWriterVersion(PW.WriterVersion[v.version])
        .setDictionaryEnabled(v.dict).setMaxRowGroupSize(600).setDataPageSizeLimit(4096);
      for (const [col, enc] of Object.entries(v.enc ?? {})) b = b.setColumnEncoding(col, E[enc]);
      const bytes = PW.writeParquet(PW.Table.fromIPCStream(ipc), b.build());
      fs.writeFileSync(file, bytes);
      cases.push({ engine: 'parquet-wasm', options, file });
    } catch (e) {
      cases.push({ engine: 'parquet-wasm', options, skip: `writer refused: ${String(e.message ?? e).split('\n')[0]}` });
    }
  }
  return cases;
}

// ---------------------------------------------------------------- Polars
export async function writePolars(ds, dir) {
  const pl = (await import('nodejs-polars')).default;
  const df = pl.readIPCStream(Buffer.from(A.tableToIPC(arrowTable(ds), 'stream')));
  const cases = [];
  for (const codec of ['uncompressed', 'snappy', 'gzip', 'lzo', 'brotli', 'lz4', 'zstd']) {
    const file = path.join(dir, `polars-${codec}.parquet`);
    const options = `compression=${codec}`;
    try {
      df.writeParquet(file, { compression: codec });
      cases.push({ engine: 'polars', options, file });
    } catch (e) {
      cases.push({ engine: 'polars', options, skip: `writer refused: ${String(e.message ?? e).split('\n')[0]}` });
    }
  }
  return cases;
}

// ---------------------------------------------------------------- DuckDB
// DuckDB has no TIMESTAMP WITH TIME ZONE in ms/ns and TIME only in us.
const DUCK_SKIP = { ts_ms_utc: 'no TIMESTAMPTZ in milliseconds', ts_ns_utc: 'no TIMESTAMPTZ in nanoseconds',
  t_ms: 'TIME is microseconds only', t_ns: 'TIME is microseconds only' };

function duckType(t, name) {
  switch (t.kind) {
    case 'bool': return 'BOOLEAN';
    case 'int': return (t.signed ? '' : 'U') + { 8: 'TINYINT', 16: 'SMALLINT', 32: 'INTEGER', 64: 'BIGINT' }[t.bits];
    case 'float': return t.bits === 32 ? 'FLOAT' : 'DOUBLE';
    case 'decimal': return `DECIMAL(${t.precision},${t.scale})`;
    case 'string': return 'VARCHAR';
    case 'binary': return 'BLOB';
    case 'date': return 'DATE';
    case 'timestamp': return t.utc ? 'TIMESTAMPTZ' : { ms: 'TIMESTAMP_MS', us: 'TIMESTAMP', ns: 'TIMESTAMP_NS' }[t.unit];
    case 'time': return 'TIME';
    case 'list': return duckType(t.item) + '[]';
    case 'struct': return `STRUCT(${t.fields.map(([n, ft]) => `"${n}" ${duckType(ft)}`).join(', ')})`;
    case 'map': return `MAP(${duckType(t.key)}, ${duckType(t.value)})`;
  }
  throw new Error('duckType ' + t.kind);
}

const sq = (s) => `'${s.replace(/'/g, "''")}'`;
function duckLit(t, v) {
  if (v === null) return 'NULL';
  switch (t.kind) {
    case 'bool': return v ? 'true' : 'false';
    case 'int': return String(v);
    case 'float': return `'${Number.isNaN(v) ? 'NaN' : v === Infinity ? 'Infinity' : v === -Infinity ? '-Infinity' : Object.is(v, -0) ? '-0.0' : String(v)}'::DOUBLE`;
    case 'decimal': return `'${fmtDecimal(v, t.scale)}'::${duckType(t)}`;
    case 'string': return sq(v);
    case 'binary': return `unhex('${Buffer.from(v).toString('hex')}')`;
    case 'date': return `DATE '${fmtDate(v)}'`;
    case 'timestamp': return `'${fmtTimestamp(v, t.unit, false)}${t.utc ? '+00' : ''}'::${duckType(t)}`;
    case 'time': return `'${fmtTime(v, t.unit)}'::TIME`;
    case 'list': return `[${v.map((x) => duckLit(t.item, x)).join(', ')}]::${duckType(t)}`;
    case 'struct': return `{${t.fields.map(([n, ft]) => `'${n}': ${duckLit(ft, v[n])}`).join(', ')}}::${duckType(t)}`;
    case 'map': return `MAP {${v.map(([k, x]) => `${duckLit(t.key, k)}: ${duckLit(t.value, x)}`).join(', ')}}::${duckType(t)}`;
  }
  throw new Error('duckLit ' + t.kind);
}

export async function writeDuckDB(ds, dir) {
  const c = await duckdb();
  const cols = ds.columns.filter((col) => !DUCK_SKIP[col.name]);
  await c.run('SET TimeZone = \'UTC\'');
  await c.run(`CREATE OR REPLACE TABLE data (${cols.map((col) => `"${col.name}" ${duckType(col.type)}`).join(', ')})`);
  for (let s = 0; s < ds.rows.length; s += 100) {
    const vals = ds.rows.slice(s, s + 100).map((r) => `(${cols.map((col) => duckLit(col.type, r[col.name])).join(', ')})`);
    await c.run(`INSERT INTO data VALUES ${vals.join(',\n')}`);
  }
  const cases = Object.entries(DUCK_SKIP).map(([col, why]) => ({ engine: 'duckdb', options: `column ${col}`, skip: why }));
  const variants = [];
  for (const codec of ['uncompressed', 'snappy', 'gzip', 'zstd', 'lz4', 'lz4_raw', 'brotli', 'lzo']) for (const version of ['V1', 'V2'])
    variants.push({ codec, version, extra: '' });
  for (const version of ['V1', 'V2']) {
    variants.push({ codec: 'snappy', version, extra: 'DICTIONARY_SIZE_LIMIT 1', tag: 'nodict' });
    variants.push({ codec: 'zstd', version, rg: 100, extra: 'DICTIONARY_SIZE_LIMIT 1', tag: 'nodict-rg100' });
  }
  // The same with every INT32-stored column left out: DuckDB's V2 files use
  // DELTA_BINARY_PACKED, and this keeps its other V2 encodings under test even
  // while parq refuses DuckDB's 33-bit INT32 deltas (see the V2 cases above).
  const int32Cols = ['i8', 'i16', 'i32', 'u8', 'u16', 'u32', 'dec_9_2', 'dec_5_0', 'd', 'l_i32', 'st', 'm'];
  variants.push({ codec: 'snappy', version: 'V2', extra: '', tag: 'no-int32', select: `SELECT * EXCLUDE (${int32Cols.join(', ')}) FROM data ORDER BY id` });
  variants.push({ codec: 'snappy', version: 'V2', extra: 'DICTIONARY_SIZE_LIMIT 1', tag: 'no-int32-nodict', select: `SELECT * EXCLUDE (${int32Cols.join(', ')}) FROM data ORDER BY id` });
  for (const v of variants) {
    const file = path.join(dir, `duckdb-${v.codec}-${v.version}${v.tag ? '-' + v.tag : ''}.parquet`);
    const opts = `FORMAT parquet, COMPRESSION ${v.codec}, ROW_GROUP_SIZE ${v.rg ?? 512}, PARQUET_VERSION ${v.version}${v.extra ? ', ' + v.extra : ''}`;
    try {
      await c.run(`COPY (${v.select ?? 'SELECT * FROM data ORDER BY id'}) TO ${sq(file)} (${opts})`);
      cases.push({ engine: 'duckdb', options: opts + (v.select ? ` [${v.tag}: ${v.select}]` : ''), file });
    } catch (e) {
      cases.push({ engine: 'duckdb', options: opts, skip: `writer refused: ${String(e.message ?? e).split('\n')[0]}` });
    }
  }
  return cases;
}

// ---------------------------------------------------------------- hyparquet-writer
const HW_SKIP = {
  dec_38_10: 'hyparquet reads decimals as float64 (not exact beyond 15 digits)',
  dec_18_6: 'hyparquet reads decimals as float64 (not exact beyond 15 digits)',
};

function hwSchema(name, t, nullable = true) {
  const rep = nullable ? 'OPTIONAL' : 'REQUIRED';
  const leaf = (el) => [{ name, repetition_type: rep, ...el }];
  switch (t.kind) {
    case 'bool': return leaf({ type: 'BOOLEAN' });
    case 'int': return leaf({ type: t.bits === 64 ? 'INT64' : 'INT32', ...(t.bits === 32 && t.signed ? {} : { logical_type: { type: 'INTEGER', bitWidth: t.bits, isSigned: t.signed }, converted_type: `${t.signed ? 'INT' : 'UINT'}_${t.bits}` }) });
    case 'float': return leaf({ type: t.bits === 32 ? 'FLOAT' : 'DOUBLE' });
    case 'decimal': return leaf({ type: t.precision <= 9 ? 'INT32' : 'INT64', converted_type: 'DECIMAL', precision: t.precision, scale: t.scale });
    case 'string': return leaf({ type: 'BYTE_ARRAY', converted_type: 'UTF8' });
    case 'binary': return leaf({ type: 'BYTE_ARRAY' });
    case 'date': return leaf({ type: 'INT32', converted_type: 'DATE' });
    case 'timestamp': return leaf({ type: 'INT64', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: t.utc, unit: { ms: 'MILLIS', us: 'MICROS', ns: 'NANOS' }[t.unit] } });
    case 'time': return leaf({ type: t.unit === 'ms' ? 'INT32' : 'INT64', logical_type: { type: 'TIME', isAdjustedToUTC: false, unit: { ms: 'MILLIS', us: 'MICROS', ns: 'NANOS' }[t.unit] } });
    case 'list': {
      const inner = hwSchema('element', t.item, true);
      return [{ name, repetition_type: rep, num_children: 1, converted_type: 'LIST', logical_type: { type: 'LIST' } },
        { name: 'list', repetition_type: 'REPEATED', num_children: 1 }, ...inner];
    }
    case 'struct': {
      const kids = t.fields.flatMap(([n, ft]) => hwSchema(n, ft, true));
      return [{ name, repetition_type: rep, num_children: t.fields.length }, ...kids];
    }
    case 'map':
      return [{ name, repetition_type: rep, num_children: 1, converted_type: 'MAP', logical_type: { type: 'MAP' } },
        { name: 'key_value', repetition_type: 'REPEATED', num_children: 2 }, ...hwSchema('key', t.key, false), ...hwSchema('value', t.value, true)];
  }
  throw new Error('hwSchema ' + t.kind);
}

function hwValue(t, v) {
  if (v === null) return null;
  switch (t.kind) {
    case 'int': return t.bits === 64 ? BigInt(v) : v;
    case 'decimal': return BigInt(v);
    case 'timestamp': return BigInt(v);
    case 'time': return t.unit === 'ms' ? Number(v) : BigInt(v);
    case 'list': return v.map((x) => hwValue(t.item, x));
    case 'struct': return Object.fromEntries(t.fields.map(([n, ft]) => [n, hwValue(ft, v[n])]));
    case 'map': return v.map(([k, x]) => ({ key: hwValue(t.key, k), value: hwValue(t.value, x) }));
    default: return v;
  }
}

export async function writeHyparquet(ds, dir) {
  const HW = await import('hyparquet-writer');
  const cases = Object.entries(HW_SKIP).map(([col, why]) => ({ engine: 'hyparquet', options: `column ${col}`, skip: why }));
  cases.push({ engine: 'hyparquet', options: 'codec=ZSTD/LZ4/LZ4_RAW', skip: 'no compressor in hyparquet-writer or node 20 zlib' });
  cases.push({ engine: 'hyparquet', options: 'data page v1', skip: 'hyparquet-writer writes data page v2 only' });
  const compressors = {
    GZIP: (b) => new Uint8Array(zlib.gzipSync(b)),
    BROTLI: (b) => new Uint8Array(zlib.brotliCompressSync(b)),
  };
  const cols = ds.columns.filter((c) => !HW_SKIP[c.name]);
  const encFor = {
    plain: () => 'PLAIN',
    dict: () => undefined,
    delta: (c) => (c.type.kind === 'int' || c.type.kind === 'date' || c.type.kind === 'timestamp' ? 'DELTA_BINARY_PACKED'
      : c.type.kind === 'string' ? 'DELTA_BYTE_ARRAY' : c.type.kind === 'binary' ? 'DELTA_LENGTH_BYTE_ARRAY' : undefined),
    bss: (c) => (c.type.kind === 'float' || (c.type.kind === 'int' && c.type.bits >= 32) ? 'BYTE_STREAM_SPLIT' : undefined),
  };
  const variants = [];
  for (const codec of ['UNCOMPRESSED', 'SNAPPY', 'GZIP', 'BROTLI']) for (const enc of ['dict', 'plain']) variants.push({ codec, enc });
  variants.push({ codec: 'SNAPPY', enc: 'delta' }, { codec: 'GZIP', enc: 'bss' });
  for (const v of variants) {
    const file = path.join(dir, `hyparquet-${v.codec}-${v.enc}.parquet`);
    const options = `codec=${v.codec} encoding=${v.enc} rowGroupSize=700 pageSize=4096`;
    try {
      const schema = [{ name: 'root', num_children: cols.length }, ...cols.flatMap((c) => hwSchema(c.name, c.type, c.nullable))];
      const columnData = cols.map((c) => ({ name: c.name, data: ds.rows.map((r) => hwValue(c.type, r[c.name])),
        ...(encFor[v.enc](c) ? { encoding: encFor[v.enc](c) } : {}) }));
      HW.parquetWriteFile({ filename: file, columnData, schema, codec: v.codec, compressors, rowGroupSize: 700, pageSize: 4096 });
      cases.push({ engine: 'hyparquet', options, file });
    } catch (e) {
      cases.push({ engine: 'hyparquet', options, skip: `writer refused: ${String(e.message ?? e).split('\n')[0]}` });
    }
  }
  return cases;
}

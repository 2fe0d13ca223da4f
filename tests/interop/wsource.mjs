// Writer direction: the source file that `parq rewrite` writes again under
// every cell of the matrix. It holds every type the writer handles, with
// nulls everywhere and nesting: the data set of data.mjs (read tests) plus
// FLOAT16, decimals on FIXED_LEN_BYTE_ARRAY and BYTE_ARRAY, low-cardinality
// columns (so that dictionaries matter), ENUM, JSON, a plain
// FIXED_LEN_BYTE_ARRAY, UUID, INTERVAL, list<list<int>> and REQUIRED columns.
// hyparquet-writer writes it from an explicit Parquet schema.
import { buildDataset, types } from './data.mjs';

export const SRC_ROWS = 1500;

// extra kinds beyond data.mjs: float16, enum, json, fixed(len), uuid, interval
const X = (kind, extra = {}) => ({ kind, ...extra });

function rng(seed) {
  let x = seed >>> 0 || 1;
  return () => { x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0; return x / 4294967296; };
}

// float16 bit pattern -> number (exact)
export function f16ToNumber(h) {
  const s = h & 0x8000 ? -1 : 1, e = (h >> 10) & 0x1f, m = h & 0x3ff;
  if (e === 0x1f) return m ? NaN : s * Infinity;
  if (e === 0) return s * m * 2 ** -24;
  return s * (1 + m / 1024) * 2 ** (e - 15);
}

const CATS = ['', 'alpha', 'beta', 'gamma', 'delta', 'épsilon', '日本', 'zeta-long-category-name', 'η', 'theta', 'iota', 'kappa'];
const ENUMS = ['RED', 'GREEN', 'BLUE', 'ÜBER', 'NONE'];
const JSONS = ['{}', '[]', '1', '"x"', '{"a":1,"b":[true,false,null]}', '[1,2.5,"é"]', '{"nested":{"k":"v"}}'];

function extraDefs() {
  const bytes = (r, n) => Uint8Array.from({ length: n }, () => Math.floor(r() * 256));
  const f16 = (r) => {
    let h;
    do h = Math.floor(r() * 65536); while (((h >> 10) & 0x1f) === 0x1f); // finite
    return f16ToNumber(h);
  };
  // a pool of values reused so dictionaries and bloom filters see repeats
  const pooled = (n, gen) => { let pool = null; return (r) => { pool ??= Array.from({ length: n }, () => gen(r)); return pool[Math.floor(r() * n)]; }; };
  const i32 = (r) => Math.floor(r() * 2 ** 32) - 2 ** 31;
  return [
    ['f16', X('float16'), f16, 0.1, [0, -0, NaN, Infinity, -Infinity, 1, -1.5, 65504, -65504, 2 ** -14, 2 ** -24, 0.333251953125]],
    // no zero: hyparquet-writer stores a zero BYTE_ARRAY decimal as zero bytes, which parq refuses
    // ("DECIMAL value has no bytes") while DuckDB, arrow-rs, Polars and hyparquet read 0 (reported)
    ['dec_20_3', types.dec(20, 3), (r) => { let v = 0n; const d = 1 + Math.floor(r() * 20); for (let i = 0; i < d; i++) v = v * 10n + BigInt(Math.floor(r() * 10)); return v === 0n ? 1000n : r() < 0.5 ? -v : v; }, 0.1,
      [-1n, 10n ** 20n - 1n, -(10n ** 20n - 1n), 127n, 128n, -128n, -129n]],
    ['s_cat', types.string, (r) => CATS[Math.floor(r() * CATS.length)], 0.1, []],
    ['k', types.i32, (r) => (Math.floor(r() * 40) - 20) * 1000003, 0.1, []],
    ['e', X('enum'), (r) => ENUMS[Math.floor(r() * ENUMS.length)], 0.1, []],
    ['j', X('json'), (r) => JSONS[Math.floor(r() * JSONS.length)], 0.1, []],
    ['fx', X('fixed', { len: 5 }), pooled(300, (r) => bytes(r, 5)), 0.1, [new Uint8Array(5), Uint8Array.of(255, 255, 255, 255, 255)]],
    ['uuid', X('uuid'), pooled(400, (r) => bytes(r, 16)), 0.1, [new Uint8Array(16), new Uint8Array(16).fill(255)]],
    ['iv', X('interval'), (r) => ({ months: Math.floor(r() * 1200), days: Math.floor(r() * 400), millis: Math.floor(r() * 86400000) }), 0.1,
      [{ months: 0, days: 0, millis: 0 }, { months: 1, days: 2, millis: 3 }]],
    ['ll', types.list(types.list(types.i32)), (r) => Array.from({ length: Math.floor(r() * 4) },
      () => (r() < 0.15 ? null : Array.from({ length: Math.floor(r() * 4) }, () => (r() < 0.15 ? null : i32(r))))), 0.15,
      [[], [null], [[]], [[null]], [[1, 2], null, [], [3]]]],
    ['req_i32', types.i32, i32, 0, [0, -1, 2147483647, -2147483648]],
    ['req_s', types.string, (r) => CATS[Math.floor(r() * CATS.length)] + (r() < 0.5 ? '' : String(Math.floor(r() * 50))), 0, ['']],
  ];
}

function* cycle(specials, gen) { yield* specials; for (;;) yield gen(); }

// { columns: [{name, type, nullable}], rows } with data.mjs's columns first.
export function buildSource(nRows = SRC_ROWS) {
  const base = buildDataset(nRows);
  const defs = extraDefs();
  const columns = [...base.columns.map((c) => (c.name === 'dec_38_10' ? { ...c, flba: 16 } : c))];
  defs.forEach(([name, type, , nullRate], k) => columns.push({ name, type, nullable: nullRate > 0, ...(name === 'dec_20_3' ? { bytes: true } : {}) }));
  const gens = defs.map(([name, , gen, nullRate, specials], k) => {
    const r = rng(4242 + 104729 * (k + 1));
    const it = cycle(specials, () => gen(r));
    return { name, nullRate, next: () => (nullRate > 0 && r() < nullRate ? null : it.next().value) };
  });
  base.rows.forEach((row, i) => {
    for (const g of gens) row[g.name] = i === 0 && g.nullRate > 0 ? null : g.next();
  });
  return { columns, rows: base.rows };
}

// ---------------------------------------------------------------- Parquet schema (hyparquet-writer)
function decimalStorage(col, t) {
  if (col?.flba) return { type: 'FIXED_LEN_BYTE_ARRAY', type_length: col.flba };
  if (col?.bytes) return { type: 'BYTE_ARRAY' };
  return { type: t.precision <= 9 ? 'INT32' : 'INT64' };
}

function schemaOf(name, t, nullable, col) {
  const rep = nullable ? 'OPTIONAL' : 'REQUIRED';
  const leaf = (el) => [{ name, repetition_type: rep, ...el }];
  const unit = (u) => ({ ms: 'MILLIS', us: 'MICROS', ns: 'NANOS' }[u]);
  switch (t.kind) {
    case 'bool': return leaf({ type: 'BOOLEAN' });
    // converted types only: hyparquet-writer 0.17 writes IntType.bitWidth as an i32 field, which
    // arrow-rs, Polars and DuckDB refuse ("is_signed missing")
    case 'int': return leaf({ type: t.bits === 64 ? 'INT64' : 'INT32', ...(t.bits === 32 && t.signed ? {} : { converted_type: `${t.signed ? 'INT' : 'UINT'}_${t.bits}` }) });
    case 'float': return leaf({ type: t.bits === 32 ? 'FLOAT' : 'DOUBLE' });
    case 'float16': return leaf({ type: 'FIXED_LEN_BYTE_ARRAY', type_length: 2, logical_type: { type: 'FLOAT16' } });
    case 'decimal': return leaf({ ...decimalStorage(col, t), converted_type: 'DECIMAL', precision: t.precision, scale: t.scale,
      logical_type: { type: 'DECIMAL', precision: t.precision, scale: t.scale } });
    case 'string': return leaf({ type: 'BYTE_ARRAY', converted_type: 'UTF8', logical_type: { type: 'STRING' } });
    case 'enum': return leaf({ type: 'BYTE_ARRAY', converted_type: 'ENUM', logical_type: { type: 'ENUM' } });
    case 'json': return leaf({ type: 'BYTE_ARRAY', converted_type: 'JSON', logical_type: { type: 'JSON' } });
    case 'binary': return leaf({ type: 'BYTE_ARRAY' });
    case 'fixed': return leaf({ type: 'FIXED_LEN_BYTE_ARRAY', type_length: t.len });
    case 'uuid': return leaf({ type: 'FIXED_LEN_BYTE_ARRAY', type_length: 16, logical_type: { type: 'UUID' } });
    case 'interval': return leaf({ type: 'FIXED_LEN_BYTE_ARRAY', type_length: 12, converted_type: 'INTERVAL' });
    case 'date': return leaf({ type: 'INT32', converted_type: 'DATE', logical_type: { type: 'DATE' } });
    case 'timestamp': return leaf({ type: 'INT64', logical_type: { type: 'TIMESTAMP', isAdjustedToUTC: t.utc, unit: unit(t.unit) } });
    case 'time': return leaf({ type: t.unit === 'ms' ? 'INT32' : 'INT64', logical_type: { type: 'TIME', isAdjustedToUTC: false, unit: unit(t.unit) } });
    case 'list':
      return [{ name, repetition_type: rep, num_children: 1, converted_type: 'LIST', logical_type: { type: 'LIST' } },
        { name: 'list', repetition_type: 'REPEATED', num_children: 1 }, ...schemaOf('element', t.item, true)];
    case 'struct':
      return [{ name, repetition_type: rep, num_children: t.fields.length }, ...t.fields.flatMap(([n, ft]) => schemaOf(n, ft, true))];
    case 'map':
      return [{ name, repetition_type: rep, num_children: 1, converted_type: 'MAP', logical_type: { type: 'MAP' } },
        { name: 'key_value', repetition_type: 'REPEATED', num_children: 2 }, ...schemaOf('key', t.key, false), ...schemaOf('value', t.value, true)];
  }
  throw new Error('schemaOf ' + t.kind);
}

function value(t, v) {
  if (v === null) return null;
  switch (t.kind) {
    case 'int': return t.bits === 64 ? BigInt(v) : v;
    case 'decimal': case 'timestamp': return BigInt(v);
    case 'json': return JSON.parse(v); // hyparquet-writer stringifies JSON values itself
    case 'time': return t.unit === 'ms' ? Number(v) : BigInt(v);
    case 'interval': {
      const b = new Uint8Array(12), dv = new DataView(b.buffer);
      dv.setUint32(0, v.months, true); dv.setUint32(4, v.days, true); dv.setUint32(8, v.millis, true);
      return b;
    }
    case 'list': return v.map((x) => value(t.item, x));
    case 'struct': return Object.fromEntries(t.fields.map(([n, ft]) => [n, value(ft, v[n])]));
    case 'map': return v.map(([k, x]) => ({ key: value(t.key, k), value: value(t.value, x) }));
    default: return v;
  }
}

// The Parquet leaves, with the path `parq --encoding` takes and the physical type.
export function leaves(src) {
  const out = [];
  const walk = (path, t, col) => {
    switch (t.kind) {
      case 'list': return walk(`${path}.list.element`, t.item);
      case 'struct': for (const [n, ft] of t.fields) walk(`${path}.${n}`, ft); return;
      case 'map': walk(`${path}.key_value.key`, t.key); walk(`${path}.key_value.value`, t.value); return;
    }
    const el = schemaOf('x', t, true, col)[0];
    out.push({ path, top: path.split('.')[0], physical: el.type, kind: t.kind, type: t, el });
  };
  for (const c of src.columns) walk(c.name, c.type, c);
  return out;
}

export async function writeSource(src, file) {
  const HW = await import('hyparquet-writer');
  const schema = [{ name: 'root', num_children: src.columns.length },
    ...src.columns.flatMap((c) => schemaOf(c.name, c.type, c.nullable, c))];
  const columnData = src.columns.map((c) => ({ name: c.name, data: src.rows.map((r) => value(c.type, r[c.name])) }));
  HW.parquetWriteFile({ filename: file, columnData, schema, codec: 'UNCOMPRESSED', rowGroupSize: 1000, pageSize: 1 << 20 });
}

// Builds an apache-arrow Table from the neutral data set (for parquet-wasm and Polars).
import * as A from 'apache-arrow';

export function arrowType(t) {
  switch (t.kind) {
    case 'bool': return new A.Bool();
    case 'int': return new A.Int(t.signed, t.bits);
    case 'float': return t.bits === 32 ? new A.Float32() : new A.Float64();
    case 'decimal': return new A.Decimal(t.scale, t.precision, 128);
    case 'string': return new A.Utf8();
    case 'binary': return new A.Binary();
    case 'date': return new A.DateDay();
    case 'timestamp': {
      const tz = t.utc ? 'UTC' : null;
      return t.unit === 'ms' ? new A.TimestampMillisecond(tz) : t.unit === 'us' ? new A.TimestampMicrosecond(tz) : new A.TimestampNanosecond(tz);
    }
    case 'time': return t.unit === 'ms' ? new A.TimeMillisecond() : t.unit === 'us' ? new A.TimeMicrosecond() : new A.TimeNanosecond();
    case 'list': return new A.List(new A.Field('item', arrowType(t.item), true));
    case 'struct': return new A.Struct(t.fields.map(([n, ft]) => new A.Field(n, arrowType(ft), true)));
    case 'map': return new A.Map_(new A.Field('entries', new A.Struct([
      new A.Field('key', arrowType(t.key), false), new A.Field('value', arrowType(t.value), true)]), false), false);
    default: throw new Error('no arrow type for ' + t.kind);
  }
}

function bitmap(values, pred) {
  const bm = new Uint8Array(Math.ceil(values.length / 8) || 1);
  values.forEach((v, i) => { if (pred(v)) bm[i >> 3] |= 1 << (i & 7); });
  return bm;
}

function varBytes(values, toBytes) {
  const offsets = new Int32Array(values.length + 1);
  const parts = [];
  let off = 0;
  values.forEach((v, i) => { if (v !== null) { const b = toBytes(v); parts.push(b); off += b.length; } offsets[i + 1] = off; });
  const data = new Uint8Array(off);
  let p = 0;
  for (const b of parts) { data.set(b, p); p += b.length; }
  return { offsets, data };
}

export function buildData(t, values) {
  const type = arrowType(t);
  const length = values.length;
  const nullBitmap = bitmap(values, (v) => v !== null);
  const nullCount = values.filter((v) => v === null).length;
  const base = { type, length, nullCount, nullBitmap };
  switch (t.kind) {
    case 'bool': return A.makeData({ ...base, data: bitmap(values, (v) => v === true) });
    case 'int': case 'float': case 'date': case 'time': case 'timestamp': {
      const AT = type.ArrayType;
      const arr = new AT(length);
      values.forEach((v, i) => { if (v !== null) arr[i] = AT === BigInt64Array ? BigInt.asIntN(64, BigInt(v)) : AT === BigUint64Array ? BigInt(v) : Number(v); });
      return A.makeData({ ...base, data: arr });
    }
    case 'decimal': {
      const arr = new Uint32Array(length * 4);
      values.forEach((v, i) => {
        if (v === null) return;
        let u = BigInt.asUintN(128, v);
        for (let w = 0; w < 4; w++) { arr[i * 4 + w] = Number(u & 0xffffffffn); u >>= 32n; }
      });
      return A.makeData({ ...base, data: arr });
    }
    case 'string': case 'binary': {
      const enc = new TextEncoder();
      const { offsets, data } = varBytes(values, (v) => (t.kind === 'string' ? enc.encode(v) : v));
      return A.makeData({ ...base, valueOffsets: offsets, data });
    }
    case 'list': case 'map': {
      const offsets = new Int32Array(length + 1);
      const items = [];
      values.forEach((v, i) => { if (v !== null) items.push(...v); offsets[i + 1] = items.length; });
      let child;
      if (t.kind === 'list') child = buildData(t.item, items);
      else {
        const st = { kind: 'struct', fields: [['key', t.key], ['value', t.value]] };
        child = buildData(st, items.map(([k, val]) => ({ key: k, value: val })));
        child = A.makeData({ ...child, type: type.children[0].type, nullCount: 0, nullBitmap: undefined, children: child.children });
      }
      return A.makeData({ ...base, valueOffsets: offsets, child });
    }
    case 'struct': {
      const children = t.fields.map(([n, ft]) => buildData(ft, values.map((v) => (v === null ? null : v[n]))));
      return A.makeData({ ...base, children });
    }
    default: throw new Error('buildData ' + t.kind);
  }
}

// columns: subset of dataset columns to include
export function arrowTable(ds, columns = ds.columns) {
  const vectors = {};
  for (const c of columns) vectors[c.name] = A.makeVector(buildData(c.type, ds.rows.map((r) => r[c.name])));
  return new A.Table(vectors);
}

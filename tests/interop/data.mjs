// The engine-neutral data set. Every column has a type spec and a JS value per
// row in a neutral representation:
//   ints: Number (8/16/32 bit) or BigInt (64 bit); floats: Number
//   decimal: BigInt unscaled value; string: JS string; binary: Uint8Array
//   date: days since epoch (Number); timestamp/time: BigInt in the column's unit
//   list: Array | null; struct: Object | null; map: Array<[key, value]> | null
export const N_ROWS = 1500;

const T = (kind, extra = {}) => ({ kind, ...extra });
export const types = {
  bool: T('bool'),
  i8: T('int', { bits: 8, signed: true }), i16: T('int', { bits: 16, signed: true }),
  i32: T('int', { bits: 32, signed: true }), i64: T('int', { bits: 64, signed: true }),
  u8: T('int', { bits: 8, signed: false }), u16: T('int', { bits: 16, signed: false }),
  u32: T('int', { bits: 32, signed: false }), u64: T('int', { bits: 64, signed: false }),
  f32: T('float', { bits: 32 }), f64: T('float', { bits: 64 }),
  string: T('string'), binary: T('binary'), date: T('date'),
  dec: (precision, scale) => T('decimal', { precision, scale }),
  ts: (unit, utc) => T('timestamp', { unit, utc }),
  time: (unit) => T('time', { unit }),
  list: (item) => T('list', { item }),
  struct: (fields) => T('struct', { fields }), // fields: [[name, type], ...]
  map: (key, value) => T('map', { key, value }),
};

// xorshift32, deterministic
function rng(seed) {
  let x = seed >>> 0 || 1;
  return () => { x ^= x << 13; x >>>= 0; x ^= x >>> 17; x ^= x << 5; x >>>= 0; return x / 4294967296; };
}

const STRINGS = ['', 'a', 'hello', 'héllo wörld', '日本語テキスト', 'emoji 😀🎉', 'quote " and \\ backslash',
  'tab\tnew\nline\r', 'ctl \u0001\u001f', 'slash /', 'Ωμέγα', '\u00e9\u0301', 'x'.repeat(40)];

function* cycle(specials, gen) { yield* specials; for (;;) yield gen(); }

const DAY_NS = 86400n * 1000000000n;
function tsFor(r, unit) {
  // spread over 1900..2100 with sub-second parts in the unit
  const days = BigInt(Math.floor(r() * 73000) - 25567);
  const sec = BigInt(Math.floor(r() * 86400));
  const frac = BigInt(Math.floor(r() * 1e9));
  const ns = days * DAY_NS + sec * 1000000000n + frac;
  return unit === 'ms' ? ns / 1000000n : unit === 'us' ? ns / 1000n : ns;
}

function randBig(r, bits, signed) {
  let v = 0n;
  for (let i = 0; i < bits; i += 16) v = (v << 16n) | BigInt(Math.floor(r() * 65536));
  v &= (1n << BigInt(bits)) - 1n;
  return signed ? BigInt.asIntN(bits, v) : v;
}

function decimalFor(r, precision) {
  const digits = 1 + Math.floor(r() * precision);
  let s = '';
  for (let i = 0; i < digits; i++) s += String(Math.floor(r() * 10));
  const v = BigInt(s);
  return r() < 0.5 ? -v : v;
}

// Column definitions: [name, type, generator(r, i) -> value (non-null), nullRate, specials]
// `specials` are emitted for the first rows (after row 0, which is all-null except id).
function columnDefs() {
  const f64specials = [0, -0, NaN, Infinity, -Infinity, 1.5, -2.25, 1e21, 1e-7, 5e-324, 1.7976931348623157e308,
    2 ** 70, 0.1, 100, 1e5, 123456.789, -1e-300];
  const f32specials = [0, -0, NaN, Infinity, -Infinity, 1.5, -2.25, Math.fround(0.1), Math.fround(3.4028234663852886e38),
    Math.fround(1e-45), 16777216, Math.fround(1e21)];
  const intSpecials = (bits, signed) => signed
    ? [0, -1, 1, -(2 ** (bits - 1)), 2 ** (bits - 1) - 1]
    : [0, 1, 2 ** bits - 1, 2 ** (bits - 1)];
  const bigSpecials = (signed) => signed ? [0n, -1n, -(2n ** 63n), 2n ** 63n - 1n, 2n ** 53n + 1n]
    : [0n, 1n, 2n ** 64n - 1n, 2n ** 63n, 2n ** 53n + 1n];
  const maxDec = (p) => 10n ** BigInt(p) - 1n;
  const intGen = (bits, signed) => (r) => Math.floor(r() * 2 ** bits) - (signed ? 2 ** (bits - 1) : 0);
  const strGen = (r) => r() < 0.5 ? STRINGS[Math.floor(r() * STRINGS.length)] : 'str-' + Math.floor(r() * 1e6).toString(36);
  const listOf = (r, n, g) => Array.from({ length: n }, () => g());
  const tsCol = (unit, utc) => [`ts_${unit}${utc ? '_utc' : ''}`, types.ts(unit, utc), (r) => tsFor(r, unit), 0.1,
    [0n, -1n, unit === "ms" ? 253402300799999n : unit === "us" ? 253402300799999999n : 9223372036854775806n]];
  return [
    ['b', types.bool, (r) => r() < 0.5, 0.1, [true, false]],
    ['i8', types.i8, intGen(8, true), 0.1, intSpecials(8, true)],
    ['i16', types.i16, intGen(16, true), 0.1, intSpecials(16, true)],
    ['i32', types.i32, intGen(32, true), 0.1, intSpecials(32, true)],
    ['i64', types.i64, (r) => randBig(r, 64, true), 0.1, bigSpecials(true)],
    ['u8', types.u8, intGen(8, false), 0.1, intSpecials(8, false)],
    ['u16', types.u16, intGen(16, false), 0.1, intSpecials(16, false)],
    ['u32', types.u32, intGen(32, false), 0.1, intSpecials(32, false)],
    ['u64', types.u64, (r) => randBig(r, 64, false), 0.1, bigSpecials(false)],
    ['f32', types.f32, (r) => Math.fround((r() - 0.5) * 10 ** Math.floor(r() * 20 - 10)), 0.1, f32specials],
    ['f64', types.f64, (r) => (r() - 0.5) * 10 ** Math.floor(r() * 40 - 20), 0.1, f64specials],
    ['dec_9_2', types.dec(9, 2), (r) => decimalFor(r, 9), 0.1, [0n, 1n, -1n, 5n, maxDec(9), -maxDec(9), 100n]],
    ['dec_18_6', types.dec(18, 6), (r) => decimalFor(r, 18), 0.1, [0n, -1n, maxDec(18), -maxDec(18)]],
    ['dec_38_10', types.dec(38, 10), (r) => decimalFor(r, 38), 0.1, [0n, -1n, maxDec(38), -maxDec(38), 10n ** 10n]],
    ['dec_5_0', types.dec(5, 0), (r) => decimalFor(r, 5), 0.1, [0n, -99999n, 99999n]],
    ['s', types.string, strGen, 0.1, STRINGS],
    ['bin', types.binary, (r) => Uint8Array.from(listOf(r, Math.floor(r() * 12), () => Math.floor(r() * 256))), 0.1,
      [new Uint8Array(0), Uint8Array.of(0), Uint8Array.of(255, 254, 0, 1), new TextEncoder().encode('text')]],
    ['d', types.date, (r) => Math.floor(r() * 80000) - 30000, 0.1, [0, -1, 18262, -719162, 2932896]],
    tsCol('ms', false), tsCol('us', false), tsCol('ns', false),
    tsCol('ms', true), tsCol('us', true), tsCol('ns', true),
    ['t_ms', types.time('ms'), (r) => BigInt(Math.floor(r() * 86400000)), 0.1, [0n, 86399999n]],
    ['t_us', types.time('us'), (r) => BigInt(Math.floor(r() * 86400000000)), 0.1, [0n, 86399999999n]],
    ['t_ns', types.time('ns'), (r) => BigInt(Math.floor(r() * 86400000000)) * 1000n + 7n, 0.1, [0n, 86399999999999n]],
    ['l_i32', types.list(types.i32), (r) => listOf(r, Math.floor(r() * 5), () => r() < 0.2 ? null : intGen(32, true)(r)), 0.15,
      [[], [null], [1, null, 3], [2147483647, -2147483648]]],
    ['l_s', types.list(types.string), (r) => listOf(r, Math.floor(r() * 4), () => r() < 0.2 ? null : strGen(r)), 0.15,
      [[], [''], [null, 'é'], ['a', 'b', 'c']]],
    ['st', types.struct([['a', types.i32], ['b', types.string], ['c', types.struct([['x', types.f64]])]]),
      (r) => ({ a: r() < 0.2 ? null : intGen(32, true)(r), b: r() < 0.2 ? null : strGen(r),
        c: r() < 0.2 ? null : { x: r() < 0.2 ? null : (r() - 0.5) * 1000 } }), 0.15,
      [{ a: null, b: null, c: null }, { a: 1, b: '', c: { x: null } }, { a: -1, b: 'ü', c: { x: -0 } }]],
    ['nested', types.list(types.struct([['name', types.string], ['vals', types.list(types.i64)]])),
      (r) => listOf(r, Math.floor(r() * 4), () => r() < 0.15 ? null : {
        name: r() < 0.2 ? null : strGen(r),
        vals: r() < 0.2 ? null : listOf(r, Math.floor(r() * 4), () => r() < 0.2 ? null : randBig(r, 64, true)),
      }), 0.15,
      [[], [null], [{ name: null, vals: null }], [{ name: 'n', vals: [] }, { name: 'm', vals: [null, 1n, -(2n ** 63n)] }]]],
    ['m', types.map(types.string, types.i32),
      (r) => { const n = Math.floor(r() * 4); return Array.from({ length: n }, (_, k) => ['k' + k + '-' + Math.floor(r() * 100), r() < 0.2 ? null : intGen(32, true)(r)]); },
      0.15, [[], [['a', null]], [['x', 1], ['y', 2], ['é', -3]]]],
  ];
}

// Builds { columns: [{name, type}], rows: [ {id, ...} ] }. Row 0 is all null.
export function buildDataset(nRows = N_ROWS, seed = 12345) {
  const defs = columnDefs();
  const columns = [{ name: 'id', type: types.i64, nullable: false }, ...defs.map(([name, type]) => ({ name, type, nullable: true }))];
  const gens = defs.map(([name, , gen, nullRate, specials], k) => {
    const r = rng(seed + 7919 * (k + 1));
    const it = cycle(specials, () => gen(r));
    return { name, next: () => (r() < nullRate ? null : it.next().value) };
  });
  const rows = [];
  for (let i = 0; i < nRows; i++) {
    const row = { id: BigInt(i) };
    for (const g of gens) row[g.name] = i === 0 ? null : g.next();
    rows.push(row);
  }
  return { columns, rows };
}

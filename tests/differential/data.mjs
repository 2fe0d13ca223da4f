// The data set of the differential test: one table of typed columns whose
// values a seeded generator draws, the SQL that makes DuckDB write it to
// Parquet, and for every column how to draw a literal that fits it and how to
// write that literal in parq's filter syntax and in DuckDB's SQL.
//
// Values are kept in a neutral form:
//   int, decimal (unscaled), time/timestamp (in the column's unit): BigInt
//   float/double: Number (-0, NaN, +/-Infinity included); date: days (Number)
//   string: JS string; blob: Buffer; uuid: lowercase string; bool: boolean
//   struct: {a, b} | null
import { fmtDate, fmtTime, fmtTimestamp, fmtDecimal } from '../interop/canonical.mjs';

export const N_ROWS = 6000;
export const DUCK_ROW_GROUP_SIZE = 2048;

// ---------------------------------------------------------------- random numbers
// splitmix32-seeded xoshiro128**: deterministic across platforms.
export function makeRng(seed) {
  let h = (Number(BigInt.asUintN(32, BigInt(seed))) ^ 0x9e3779b9) >>> 0;
  const mix = () => {
    h = (h + 0x9e3779b9) >>> 0;
    let z = h;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
  let a = mix(), b = mix(), c = mix(), d = mix();
  const next = () => {
    const t = b << 9;
    let r = Math.imul(b, 5);
    r = (Math.imul((r << 7) | (r >>> 25), 9)) >>> 0;
    c ^= a; d ^= b; b ^= c; a ^= d; c ^= t;
    d = (d << 11) | (d >>> 21);
    return r >>> 0;
  };
  const r = () => next() / 4294967296;
  r.int = (lo, hi) => lo + Math.floor(r() * (hi - lo + 1)); // inclusive
  r.pick = (xs) => xs[Math.floor(r() * xs.length)];
  r.chance = (p) => r() < p;
  r.big = (bits) => { // uniform in [0, 2^bits)
    let v = 0n;
    for (let i = 0; i < bits; i += 32) v = (v << 32n) | BigInt(next());
    return v & ((1n << BigInt(bits)) - 1n);
  };
  r.bigBetween = (lo, hi) => { // inclusive, BigInt
    const span = hi - lo + 1n;
    const bits = span.toString(2).length + 8;
    return lo + (r.big(bits) % span);
  };
  return r;
}

// ---------------------------------------------------------------- columns
const INT_RANGE = (bits, signed) => signed
  ? [-(1n << BigInt(bits - 1)), (1n << BigInt(bits - 1)) - 1n]
  : [0n, (1n << BigInt(bits)) - 1n];
const INT_DUCK = { '8true': 'TINYINT', '16true': 'SMALLINT', '32true': 'INTEGER', '64true': 'BIGINT',
  '8false': 'UTINYINT', '16false': 'USMALLINT', '32false': 'UINTEGER', '64false': 'UBIGINT' };

const US_PER_DAY = 86400n * 1000000n;
const NS_PER_DAY = 86400n * 1000000000n;
const clampBig = (v, lo, hi) => (v < lo ? lo : v > hi ? hi : v);

// A column type: how DuckDB spells it, its value range, and its literals.
function intType(bits, signed) {
  const [min, max] = INT_RANGE(bits, signed);
  const duck = INT_DUCK[`${bits}${signed}`];
  return {
    kind: 'int', duck, min, max, ordered: true,
    sql: (v) => `CAST(${v} AS ${duck})`,
    parq: (v, r) => {
      // now and then in exponent or with a zero fraction: parq takes any
      // number text that is a whole number
      if (v !== 0n && v % 1000n === 0n && r.chance(0.3)) {
        let m = v, e = 0;
        while (m % 10n === 0n) { m /= 10n; e++; }
        return `${m}e${e}`;
      }
      if (r.chance(0.05)) return `${v}.0`;
      return `${v}`;
    },
    near: (v, r) => clampBig(v + BigInt(r.pick([-1, 1, -2, 2])), min, max),
    random: (r, lo, hi) => r.bigBetween(lo, hi),
    outside: (lo, hi, r) => (r.chance(0.5) ? (lo > min ? lo - 1n - r.bigBetween(0n, clampBig(lo - min - 1n, 0n, 1000n)) : min)
      : (hi < max ? hi + 1n + r.bigBetween(0n, clampBig(max - hi - 1n, 0n, 1000n)) : max)),
    specials: [0n, min, max, 1n, -1n].filter((v) => v >= min && v <= max),
    cmp: (a, b) => (a < b ? -1 : a > b ? 1 : 0),
  };
}

function floatText(v) {
  if (Number.isNaN(v)) return 'NaN';
  if (v === Infinity) return 'Infinity';
  if (v === -Infinity) return '-Infinity';
  if (Object.is(v, -0)) return '-0.0';
  return String(v);
}
function realType(bits) {
  const single = bits === 32;
  const round = single ? Math.fround : (x) => x;
  const duck = single ? 'FLOAT' : 'DOUBLE';
  return {
    kind: 'real', duck, ordered: true, single,
    // FLOAT columns compare with the literal read as a double, then cast to
    // float (what parq documents); DuckDB is told exactly that.
    sql: (v) => (single ? `CAST(CAST('${floatText(v)}' AS DOUBLE) AS FLOAT)` : `CAST('${floatText(v)}' AS DOUBLE)`),
    parq: (v, r) => {
      const t = floatText(v);
      if (Number.isFinite(v) && v !== 0 && r.chance(0.2)) return v.toExponential(); // 1.5e+3 -> keep the sign
      return t;
    },
    near: (v, r) => {
      if (!Number.isFinite(v)) return v;
      // just beside the value, or a double between two floats
      const step = Math.max(Math.abs(v) * (single ? 2 ** -22 : 2 ** -50), single ? 1e-30 : 1e-300);
      return r.chance(0.5) ? v + (r.chance(0.5) ? step : -step) : (single ? v + (r.chance(0.5) ? 1 : -1) * step / 3 : v);
    },
    random: (r, lo, hi) => round(lo + r() * (hi - lo)),
    outside: (lo, hi, r) => (r.chance(0.5) ? lo - 1 - Math.floor(r() * 100) : hi + 1 + Math.floor(r() * 100)),
    specials: [NaN, -0, 0, Infinity, -Infinity, 1, -1, 0.5],
    cmp: (a, b) => {
      const na = Number.isNaN(a), nb = Number.isNaN(b);
      if (na || nb) return (na ? 1 : 0) - (nb ? 1 : 0);
      return a < b ? -1 : a > b ? 1 : 0;
    },
  };
}

function decimalType(precision, scale) {
  const max = 10n ** BigInt(precision) - 1n, min = -max;
  const duck = `DECIMAL(${precision},${scale})`;
  return {
    kind: 'decimal', duck, precision, scale, min, max, ordered: true,
    sql: (v) => `CAST('${fmtDecimal(v, scale)}' AS ${duck})`,
    parq: (v, r) => {
      let t = fmtDecimal(v, scale);
      // parq takes fewer fraction digits, or an exponent, when the value is the same
      if (scale > 0 && r.chance(0.3)) t = t.replace(/0+$/, '').replace(/\.$/, '');
      else if (v !== 0n && r.chance(0.15)) t = `${v}e-${scale}`;
      return t;
    },
    near: (v, r) => clampBig(v + BigInt(r.pick([-1, 1, -100, 100])), min, max),
    random: (r, lo, hi) => r.bigBetween(lo, hi),
    outside: (lo, hi, r) => (r.chance(0.5) ? clampBig(lo - 1n - r.bigBetween(0n, 10000n), min, max)
      : clampBig(hi + 1n + r.bigBetween(0n, 10000n), min, max)),
    specials: [0n, min, max, 1n, -1n],
    cmp: (a, b) => (a < b ? -1 : a > b ? 1 : 0),
  };
}

const DATE_MIN = -25567, DATE_MAX = 47482; // 1900-01-01 .. 2099-12-31
const dateType = {
  kind: 'date', duck: 'DATE', ordered: true,
  sql: (v) => `DATE '${fmtDate(v)}'`,
  parq: (v) => `DATE '${fmtDate(v)}'`,
  near: (v, r) => v + r.pick([-1, 1]),
  random: (r, lo, hi) => r.int(lo, hi),
  outside: (lo, hi, r) => (r.chance(0.5) ? lo - r.int(1, 400) : hi + r.int(1, 400)),
  specials: [0, DATE_MIN, DATE_MAX],
  cmp: (a, b) => a - b,
};

function timeText(v) { // micros -> HH:MM:SS[.ffffff], the fraction trimmed
  return fmtTime(v, 'us').replace(/\.?0+$/, (m) => (m.startsWith('.') ? '' : m)).replace(/\.$/, '');
}
const timeType = {
  kind: 'time', duck: 'TIME', ordered: true,
  sql: (v) => `TIME '${fmtTime(v, 'us')}'`,
  parq: (v, r) => `TIME '${r.chance(0.5) ? fmtTime(v, 'us') : timeText(v)}'`,
  near: (v, r) => clampBig(v + BigInt(r.pick([-1, 1, -1000000, 1000000])), 0n, US_PER_DAY - 1n),
  random: (r, lo, hi) => r.bigBetween(lo, hi),
  outside: (lo, hi) => (lo > 0n ? 0n : US_PER_DAY - 1n),
  specials: [0n, US_PER_DAY - 1n, 43200000000n],
  cmp: (a, b) => (a < b ? -1 : a > b ? 1 : 0),
};

// local text of a timestamp in `unit`: 'YYYY-MM-DD HH:MM:SS.f' (space or T)
function tsText(v, unit, r) {
  let t = fmtTimestamp(v, unit, false);
  if (r && r.chance(0.3)) t = t.replace(/\.?0+$/, '').replace(/\.$/, '');
  return r && r.chance(0.5) ? t : t.replace('T', ' ');
}
const offsetText = (min) => `${min < 0 ? '-' : '+'}${String(Math.floor(Math.abs(min) / 60)).padStart(2, '0')}:${String(Math.abs(min) % 60).padStart(2, '0')}`;
function timestampType(unit, utc) {
  const per = unit === 'us' ? US_PER_DAY : NS_PER_DAY;
  const lo = BigInt(unit === 'us' ? DATE_MIN : -25000) * per, hi = BigInt(unit === 'us' ? DATE_MAX : 47000) * per;
  const duck = utc ? 'TIMESTAMPTZ' : unit === 'ns' ? 'TIMESTAMP_NS' : 'TIMESTAMP';
  const perMin = per / 1440n;
  return {
    kind: 'timestamp', duck, unit, utc, ordered: true,
    sql: (v) => `${duck} '${fmtTimestamp(v, unit, false).replace('T', ' ')}${utc ? '+00:00' : ''}'`,
    parq: (v, r) => {
      if (!utc) return `TIMESTAMP '${tsText(v, unit, r)}'`;
      // a zone: none (UTC), Z, or an offset applied to the local text
      const z = r.pick(['none', 'Z', 'off']);
      if (z === 'off') {
        const off = r.pick([-480, -60, 90, 120, 330, 600]);
        return `TIMESTAMP '${tsText(v + BigInt(off) * perMin, unit, r)}${offsetText(off)}'`;
      }
      return `TIMESTAMP '${tsText(v, unit, r)}${z === 'Z' ? 'Z' : ''}'`;
    },
    near: (v, r) => v + BigInt(r.pick([-1, 1])) * r.pick([1n, per / 86400n]),
    random: (r, a, b) => r.bigBetween(a, b),
    outside: (a, b, r) => (r.chance(0.5) ? a - BigInt(r.int(1, 1000)) * perMin : b + BigInt(r.int(1, 1000)) * perMin),
    specials: [0n, lo, hi],
    cmp: (a, b) => (a < b ? -1 : a > b ? 1 : 0),
    lo, hi, per,
  };
}

const sqlString = (s) => `'${s.replace(/'/g, "''")}'`;
const LONG_A = 'long-shared-prefix-'.repeat(4); // 76 bytes: past parq's and DuckDB's truncation of statistics
const LONG_MAX = '\u{10FFFF}'.repeat(20);       // bytes F4 8F BF BF...: a truncated max cannot be incremented easily
const LONG_FF = '\u00ff'.repeat(40);
const STRING_SPECIALS = ['', 'a', 'app', 'apple', 'applesauce', 'banana', 'é', 'éclair', '日本', '日本語', '😀',
  LONG_A, LONG_A + 'm', LONG_MAX, LONG_FF, "it's", 'Z', 'zzz', '~'];
const stringType = {
  kind: 'string', duck: 'VARCHAR', ordered: true,
  sql: sqlString,
  parq: sqlString,
  near: (v, r) => {
    const cps = [...v];
    switch (r.int(0, 4)) {
      case 0: return v + r.pick([' ', 'a', '\u0001', 'é', '\u{10FFFF}']);
      case 1: return cps.slice(0, -1).join('');
      case 2: return cps.length ? cps.slice(0, -1).join('') + String.fromCodePoint(cps[cps.length - 1].codePointAt(0) + 1) : 'a';
      case 3: return cps.length ? cps.slice(0, -1).join('') + String.fromCodePoint(Math.max(1, cps[cps.length - 1].codePointAt(0) - 1)) : '';
      default: return v + v;
    }
  },
  random: (r) => randomString(r),
  outside: (lo, hi, r) => (r.chance(0.5) ? '' : hi + 'z'),
  specials: STRING_SPECIALS,
  cmp: (a, b) => Buffer.compare(Buffer.from(a), Buffer.from(b)),
};
function randomString(r) {
  switch (r.int(0, 6)) {
    case 0: return r.pick(STRING_SPECIALS);
    case 1: return r.pick(['app', 'apple', 'appl', 'ban', 'banana', 'b']) + r.pick(['', 's', 'ication', 'sauce', String(r.int(0, 99))]);
    case 2: return (r.chance(0.5) ? LONG_A : r.chance(0.5) ? LONG_MAX : LONG_FF) + String(r.int(0, 999)).padStart(3, '0') + 'x'.repeat(r.int(0, 30));
    case 3: return r.pick(['é', '日本', 'Ω', '😀', 'ü']) + r.pick(['', 'x', '語', 'mega']);
    case 4: return String.fromCharCode(...Array.from({ length: r.int(1, 8) }, () => r.int(97, 122)));
    case 5: return String.fromCharCode(...Array.from({ length: r.int(1, 4) }, () => r.int(32, 126)));
    default: return r.pick(['red', 'green', 'blue']) + (r.chance(0.5) ? '' : '-' + r.int(0, 9));
  }
}
const LOWCARD = ['', 'red', 'green', 'blue', 'yellow', 'ye', 'é'];
const lowCardType = { ...stringType, random: (r) => r.pick(LOWCARD), specials: [...LOWCARD, 'Red', 'purple'] };

const hex = (b) => Buffer.from(b).toString('hex');
const blobType = {
  kind: 'blob', duck: 'BLOB', ordered: true,
  sql: (v) => `from_hex('${hex(v)}')`,
  parq: (v, r) => `X'${r.chance(0.5) ? hex(v).toUpperCase() : hex(v)}'`,
  near: (v, r) => (r.chance(0.5) ? Buffer.concat([v, Buffer.from([r.pick([0, 1, 0xff])])]) : v.subarray(0, Math.max(0, v.length - 1))),
  random: (r) => randomBlob(r),
  outside: (lo, hi) => Buffer.concat([hi, Buffer.from([0xff])]),
  specials: [Buffer.alloc(0), Buffer.from([0]), Buffer.from([0xff, 0xff]), Buffer.from('ab')],
  cmp: (a, b) => Buffer.compare(a, b),
};
function randomBlob(r) {
  if (r.chance(0.1)) return Buffer.alloc(0);
  const prefix = r.pick([[], [0xca, 0xfe], [0xff], [0x00], [0x61, 0x62]]);
  return Buffer.from([...prefix, ...Array.from({ length: r.int(0, 12) }, () => r.int(0, 255))]);
}

const UUID_POOL = (r) => Array.from({ length: 40 }, () => uuidText(r.big(128)));
function uuidText(v) {
  const h = v.toString(16).padStart(32, '0');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-${h.slice(12, 16)}-${h.slice(16, 20)}-${h.slice(20)}`;
}
const uuidBig = (s) => BigInt('0x' + s.replace(/-/g, ''));
const uuidType = {
  kind: 'uuid', duck: 'UUID', ordered: true,
  sql: (v) => `CAST('${v}' AS UUID)`,
  parq: (v, r) => `'${r.chance(0.3) ? v.toUpperCase() : v}'`,
  near: (v, r) => uuidText(clampBig(uuidBig(v) + BigInt(r.pick([-1, 1])), 0n, (1n << 128n) - 1n)),
  random: (r) => uuidText(r.big(128)),
  outside: (lo, hi, r) => (r.chance(0.5) ? uuidText(0n) : uuidText((1n << 128n) - 1n)),
  specials: [uuidText(0n), uuidText((1n << 128n) - 1n), uuidText(1n << 127n)],
  cmp: (a, b) => (uuidBig(a) < uuidBig(b) ? -1 : uuidBig(a) > uuidBig(b) ? 1 : 0),
};

const boolType = {
  kind: 'bool', duck: 'BOOLEAN', ordered: true,
  sql: (v) => (v ? 'TRUE' : 'FALSE'),
  parq: (v) => (v ? 'TRUE' : 'FALSE'),
  near: (v) => !v,
  random: (r) => r.chance(0.5),
  outside: (lo, hi) => !hi,
  specials: [true, false],
  cmp: (a, b) => Number(a) - Number(b),
};

// ---------------------------------------------------------------- the table
// name: the column as parq and DuckDB spell it (quoted when needed);
// gen(r, i): the value of row i (null allowed) for the leaf columns.
export function makeColumns(r) {
  const uuids = UUID_POOL(r);
  const nul = (p, f) => (rr, i) => (rr.chance(p) ? null : f(rr, i));
  const band = (i, width) => Math.floor(i / width);
  const cols = [
    { name: 'id', type: intType(64, true), sorted: true, gen: (rr, i) => BigInt(i) },
    { name: 'i8', type: intType(8, true), gen: nul(0.05, (rr) => (rr.chance(0.05) ? rr.pick([-128n, 127n]) : BigInt(rr.int(-128, 127)))) },
    // clustered: each band of rows holds a narrow range, so statistics prune
    { name: 'i16', type: intType(16, true), gen: nul(0.05, (rr, i) => BigInt(band(i, 500) * 2000 - 12000 + rr.int(0, 2500))) },
    // null in rows 1500..2299 (whole pages and a null row group in some layouts)
    { name: 'i32', type: intType(32, true), gen: (rr, i) => (i >= 1500 && i < 2300 ? null : rr.chance(0.04) ? null
      : rr.chance(0.02) ? rr.pick([-2147483648n, 2147483647n]) : BigInt(rr.int(-100000, 100000))) },
    { name: 'i64', type: intType(64, true), gen: nul(0.05, (rr, i) => (rr.chance(0.3) ? rr.bigBetween(-(1n << 62n), 1n << 62n)
      : BigInt(band(i, 1000)) * 1000000000000n + BigInt(rr.int(0, 999999)))) },
    { name: 'u8', type: intType(8, false), gen: nul(0.05, (rr) => BigInt(rr.int(0, 255))) },
    { name: 'u16', type: intType(16, false), gen: nul(0.05, (rr, i) => BigInt(band(i, 600) * 6000 + rr.int(0, 6500))) },
    { name: 'u32', type: intType(32, false), gen: nul(0.05, (rr) => (rr.chance(0.4) ? BigInt(rr.int(2 ** 31, 2 ** 32 - 1)) : BigInt(rr.int(0, 2 ** 31 - 1)))) },
    // values beyond 2^63: unsigned order differs from signed
    { name: 'u64', type: intType(64, false), gen: nul(0.05, (rr, i) => (rr.chance(0.1) ? rr.pick([0n, (1n << 64n) - 1n, 1n << 63n, (1n << 63n) - 1n])
      : band(i, 1500) % 2 ? (1n << 63n) + rr.big(40) : rr.big(40))) },
    // rows 4200..4599 hold only NaN and nulls (pages whose statistics have no min/max)
    { name: 'f32', type: realType(32), gen: nul(0.05, (rr, i) => (i >= 4200 && i < 4600 ? NaN : rr.chance(0.1) ? rr.pick([NaN, -0, 0, Infinity, -Infinity])
      : rr.chance(0.2) ? rr.pick([-2, -1, 0.5, 1, 1.5, 100, 0.1]) : Math.fround(band(i, 1000) * 100 + rr() * 150 - 300))) },
    { name: 'f64', type: realType(64), gen: nul(0.05, (rr, i) => (band(i, 700) === 3 && rr.chance(0.5) ? NaN // NaN-heavy stretch
      // zeros: -0.0 in even bands of 1000 rows, +0.0 in odd ones (bloom filters hash the bits)
      : rr.chance(0.08) ? rr.pick([NaN, band(i, 1000) % 2 ? 0 : -0, Infinity, -Infinity])
        : rr.chance(0.2) ? rr.pick([-2, -1, 0.5, 1, 1.5, 100, 0.1, 1e300, -1e-300])
          : Math.round(rr() * 2e6) / 1000 - 1000)) },
    { name: 's', type: stringType, gen: nul(0.05, (rr) => randomString(rr)) },
    { name: 'sc', type: lowCardType, gen: nul(0.1, (rr) => rr.pick(LOWCARD)) },
    // sorted strings: prefixes grow with the row (page index boundary order)
    { name: 'ss', type: stringType, sorted: true, gen: (rr, i) => (i % 97 === 5 ? null : `k${String(band(i, 13)).padStart(5, '0')}${i % 3 ? '' : LONG_A}`) },
    { name: '"x y"', type: intType(32, true), gen: nul(0.3, (rr) => BigInt(rr.int(-5, 5))) },
    { name: 'd4', type: decimalType(4, 2), gen: nul(0.05, (rr) => (rr.chance(0.05) ? rr.pick([9999n, -9999n]) : BigInt(rr.int(-9999, 9999)))) },
    { name: 'd18', type: decimalType(18, 3), gen: nul(0.05, (rr, i) => (rr.chance(0.05) ? rr.pick([10n ** 18n - 1n, -(10n ** 18n - 1n)])
      : BigInt(band(i, 800)) * 10n ** 15n + rr.bigBetween(-(10n ** 14n), 10n ** 15n))) },
    { name: 'd38', type: decimalType(38, 10), gen: nul(0.05, (rr) => (rr.chance(0.05) ? rr.pick([10n ** 38n - 1n, -(10n ** 38n - 1n), 0n])
      : rr.chance(0.5) ? rr.bigBetween(-(10n ** 20n), 10n ** 20n) : rr.bigBetween(-(10n ** 38n - 1n), 10n ** 38n - 1n))) },
    { name: 'dt', type: dateType, sorted: true, gen: (rr, i) => (i % 211 === 7 ? null : 18000 + Math.floor(i / 7)) },
    { name: 'tm', type: timeType, gen: nul(0.05, (rr) => (rr.chance(0.05) ? rr.pick([0n, US_PER_DAY - 1n]) : rr.bigBetween(0n, US_PER_DAY - 1n))) },
    { name: 'ts', type: timestampType('us', false), gen: nul(0.05, (rr, i) => (rr.chance(0.5)
      ? BigInt(-25000 + band(i, 1000) * 12000 + rr.int(0, 12000)) * US_PER_DAY + rr.bigBetween(0n, US_PER_DAY - 1n)
      : rr.bigBetween(BigInt(DATE_MIN) * US_PER_DAY, BigInt(DATE_MAX) * US_PER_DAY))) },
    { name: 'tsn', type: timestampType('ns', false), gen: nul(0.05, (rr) => rr.bigBetween(-25000n * NS_PER_DAY, 47000n * NS_PER_DAY)) },
    { name: 'tstz', type: timestampType('us', true), gen: nul(0.05, (rr) => (rr.chance(0.2) ? rr.pick([0n, 1n, -1n])
      : rr.bigBetween(BigInt(DATE_MIN) * US_PER_DAY, BigInt(DATE_MAX) * US_PER_DAY))) },
    { name: 'b', type: boolType, gen: (rr, i) => (i >= 3000 && i < 3500 ? true : rr.chance(0.1) ? null : rr.chance(0.5)) },
    { name: 'bl', type: blobType, gen: nul(0.05, (rr) => randomBlob(rr)) },
    { name: 'u', type: uuidType, gen: nul(0.05, (rr) => (rr.chance(0.5) ? rr.pick(uuids) : uuidText(rr.big(128)))) },
    { name: 'st.a', type: intType(32, true), struct: 'st', field: 'a', gen: nul(0.1, (rr, i) => BigInt(band(i, 1000) * 100 + rr.int(0, 150))) },
    { name: 'st.b', type: stringType, struct: 'st', field: 'b', gen: nul(0.1, (rr) => randomString(rr)) },
  ];
  return cols;
}

// Generates the rows: rows[i][k] is column k's value (the struct's fields as
// leaves; row i's struct is null when `stNull[i]`).
export function makeTable(seed) {
  const r = makeRng(seed);
  const columns = makeColumns(r);
  const rows = [];
  const stNull = [];
  for (let i = 0; i < N_ROWS; i++) {
    rows.push(columns.map((c) => c.gen(r, i)));
    stNull.push(r.chance(0.05));
  }
  for (let i = 0; i < N_ROWS; i++) {
    if (stNull[i]) columns.forEach((c, k) => { if (c.struct) rows[i][k] = null; });
  }
  // per column: the non-null values sorted, for literals at, beside and outside them
  columns.forEach((c, k) => {
    const vals = rows.map((row) => row[k]).filter((v) => v !== null);
    c.values = vals;
    c.rowValues = rows.map((row) => row[k]);
    c.sortedValues = [...vals].sort(c.type.cmp);
    const finite = c.type.kind === 'real' ? c.sortedValues.filter((v) => Number.isFinite(v)) : c.sortedValues;
    c.min = finite[0];
    c.max = finite[finite.length - 1];
  });
  return { columns, rows, stNull };
}

// SQL that creates the table `t` in DuckDB and fills it with the rows.
export function tableSql({ columns, rows, stNull }) {
  const defs = [];
  const seen = new Set();
  for (const c of columns) {
    if (c.struct) {
      if (seen.has(c.struct)) continue;
      seen.add(c.struct);
      const fields = columns.filter((x) => x.struct === c.struct).map((x) => `${x.field} ${x.type.duck}`);
      defs.push(`${c.struct} STRUCT(${fields.join(', ')})`);
    } else {
      defs.push(`${c.name} ${c.type.duck}`);
    }
  }
  const stmts = [`CREATE TABLE t (${defs.join(', ')})`];
  const lit = (c, v) => (v === null ? 'NULL' : c.type.sql(v));
  for (let start = 0; start < rows.length; start += 500) {
    const tuples = [];
    for (let i = start; i < Math.min(rows.length, start + 500); i++) {
      const vals = [];
      let structDone = false;
      columns.forEach((c, k) => {
        if (!c.struct) { vals.push(lit(c, rows[i][k])); return; }
        if (structDone) return;
        structDone = true;
        if (stNull[i]) { vals.push('NULL'); return; }
        const fs = columns.map((x, j) => [x, j]).filter(([x]) => x.struct === c.struct);
        vals.push(`{${fs.map(([x, j]) => `'${x.field}': ${lit(x, rows[i][j])}`).join(', ')}}`);
      });
      tuples.push(`(${vals.join(', ')})`);
    }
    stmts.push(`INSERT INTO t VALUES ${tuples.join(',\n')}`);
  }
  return stmts;
}

// ---------------------------------------------------------------- literals
// A literal for column c: at, beside, between or outside its values, or one
// of its type's special values. Always within the column's type.
const BOUNDARIES = [50, 100, 150, 300, 500, 1000, 1200, 1700, 2048, 2500];
export function pickLiteral(c, r) {
  const t = c.type;
  const fit = (v) => fits(c, v);
  for (let tries = 0; tries < 20; tries++) {
    let v;
    const x = r();
    if (x < 0.27) v = r.pick(c.values);
    else if (x < 0.35) { // the value of a row at or beside a row group or page boundary of some file
      const i = r.pick(BOUNDARIES) * r.int(1, 6) + r.pick([-1, 0, 0, 1]);
      v = c.rowValues[Math.max(0, Math.min(c.rowValues.length - 1, i))] ?? undefined;
    } else if (x < 0.45) v = r.chance(0.5) ? c.min : c.max;
    else if (x < 0.6) v = t.near(r.pick(c.values), r);
    else if (x < 0.7) v = t.outside(c.min, c.max, r);
    else if (x < 0.82) v = r.pick(t.specials);
    else v = t.random(r, c.min, c.max);
    if (v !== undefined && fit(v)) return v;
  }
  return r.pick(c.values);
}

function fits(c, v) {
  const t = c.type;
  switch (t.kind) {
    case 'int': case 'decimal': return v >= t.min && v <= t.max;
    case 'real': return !t.single || !Number.isFinite(v) || Math.abs(v) < 3e38;
    case 'date': return v >= -100000 && v <= 100000;
    case 'time': return v >= 0n && v < US_PER_DAY;
    case 'timestamp': return v >= t.lo - t.per && v <= t.hi + t.per;
    case 'string': return !v.includes('\0');
    default: return true;
  }
}

export { sqlString };

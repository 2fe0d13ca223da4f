// Canonical values per /work/shared/golden/FORMAT.md, and the comparison of
// its "Comparing" section.

const pad = (n, w) => String(n).padStart(w, '0');

// days since 1970-01-01 -> [y, m, d] (proleptic Gregorian; H. Hinnant's algorithm)
function civil(days) {
  let z = BigInt(days) + 719468n;
  const era = (z >= 0n ? z : z - 146096n) / 146097n;
  const doe = z - era * 146097n;
  const yoe = (doe - doe / 1460n + doe / 36524n - doe / 146096n) / 365n;
  let y = yoe + era * 400n;
  const doy = doe - (365n * yoe + yoe / 4n - yoe / 100n);
  const mp = (5n * doy + 2n) / 153n;
  const d = doy - (153n * mp + 2n) / 5n + 1n;
  const m = mp < 10n ? mp + 3n : mp - 9n;
  if (m <= 2n) y += 1n;
  return [y, Number(m), Number(d)];
}

function fmtYear(y) {
  if (y >= 1n && y <= 9999n) return pad(y, 4);
  return (y < 0n ? '-' : '+') + pad(y < 0n ? -y : y, 4);
}

export function fmtDate(days) {
  const [y, m, d] = civil(days);
  return `${fmtYear(y)}-${pad(m, 2)}-${pad(d, 2)}`;
}

const PER_SEC = { ms: 1000n, us: 1000000n, ns: 1000000000n };
const DIGITS = { ms: 3, us: 6, ns: 9 };
const floorDiv = (a, b) => (a >= 0n ? a / b : -((-a + b - 1n) / b));

export function fmtTimestamp(v, unit, utc) {
  v = BigInt(v);
  const per = PER_SEC[unit];
  const perDay = per * 86400n;
  const days = floorDiv(v, perDay);
  let rem = v - days * perDay;
  const secs = rem / per;
  const frac = rem - secs * per;
  const hh = secs / 3600n, mm = (secs / 60n) % 60n, ss = secs % 60n;
  return `${fmtDate(days)}T${pad(hh, 2)}:${pad(mm, 2)}:${pad(ss, 2)}.${pad(frac, DIGITS[unit])}${utc ? 'Z' : ''}`;
}

export function fmtTime(v, unit) {
  v = BigInt(v);
  const per = PER_SEC[unit];
  const secs = v / per, frac = v % per;
  return `${pad(secs / 3600n, 2)}:${pad((secs / 60n) % 60n, 2)}:${pad(secs % 60n, 2)}.${pad(frac, DIGITS[unit])}`;
}

// converts a timestamp/time value between units (exact when going finer)
export function convertUnit(v, from, to) {
  v = BigInt(v);
  const a = PER_SEC[from], b = PER_SEC[to];
  return a === b ? v : a < b ? v * (b / a) : floorDiv(v, a / b);
}

export function fmtDecimal(unscaled, scale) {
  let v = BigInt(unscaled);
  const neg = v < 0n;
  if (neg) v = -v;
  let s = v.toString();
  if (scale > 0) {
    s = s.padStart(scale + 1, '0');
    s = s.slice(0, s.length - scale) + '.' + s.slice(s.length - scale);
  }
  return (neg ? '-' : '') + s;
}

export const b64 = (bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');

export function fmtFloat(x) {
  if (x === null || x === undefined) return null;
  x = Number(x);
  if (Number.isNaN(x)) return 'NaN';
  if (x === Infinity) return 'Infinity';
  if (x === -Infinity) return '-Infinity';
  return x; // -0 kept as -0
}

// canonical integer: Number when it is exact, else BigInt
export function fmtInt(v) {
  if (v === null || v === undefined) return null;
  if (typeof v === 'bigint') return (v >= -(2n ** 53n) && v <= 2n ** 53n) ? Number(v) : v;
  return v;
}

// ---------------------------------------------------------------------------
// JSON parser that keeps integers beyond 2^53 exact (as BigInt) and -0 as -0.
export function parseJson(text) {
  let i = 0;
  const ws = () => { while (i < text.length && ' \t\r\n'.includes(text[i])) i++; };
  const fail = (m) => { throw new Error(`JSON parse error at ${i}: ${m}: ${text.slice(0, 200)}`); };
  function value() {
    ws();
    const c = text[i];
    if (c === '{') {
      i++; const o = {}; ws();
      if (text[i] === '}') { i++; return o; }
      for (;;) {
        ws(); const k = string(); ws();
        if (text[i++] !== ':') fail('expected :');
        if (Object.prototype.hasOwnProperty.call(o, k)) fail('duplicate key ' + k);
        o[k] = value(); ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === '}') { i++; return o; }
        fail('expected , or }');
      }
    }
    if (c === '[') {
      i++; const a = []; ws();
      if (text[i] === ']') { i++; return a; }
      for (;;) {
        a.push(value()); ws();
        if (text[i] === ',') { i++; continue; }
        if (text[i] === ']') { i++; return a; }
        fail('expected , or ]');
      }
    }
    if (c === '"') return string();
    if (text.startsWith('true', i)) { i += 4; return true; }
    if (text.startsWith('false', i)) { i += 5; return false; }
    if (text.startsWith('null', i)) { i += 4; return null; }
    const m = /^-?(0|[1-9]\d*)(\.\d+)?([eE][+-]?\d+)?/.exec(text.slice(i, i + 400));
    if (!m) fail('bad value');
    i += m[0].length;
    if (!m[2] && !m[3]) {
      const b = BigInt(m[0]);
      if (b === 0n && m[0].startsWith('-')) return -0;
      return (b >= -(2n ** 53n) && b <= 2n ** 53n) ? Number(b) : b;
    }
    return Number(m[0]);
  }
  function string() {
    if (text[i] !== '"') fail('expected string');
    const start = i;
    i++;
    while (text[i] !== '"') { if (text[i] === '\\') i++; i++; if (i > text.length) fail('unterminated string'); }
    i++;
    return JSON.parse(text.slice(start, i));
  }
  const v = value(); ws();
  if (i !== text.length) fail('trailing text');
  return v;
}

// ---------------------------------------------------------------------------
// Comparison: numbers as float64 when either side is a non-integer or the
// expected side is a float (floats are produced by fmtFloat, integers by fmtInt);
// integers exactly. Zero's sign matters (FORMAT writes -0.0).
export function sameValue(exp, got) {
  if (exp === null || got === null) return exp === got;
  const te = typeof exp, tg = typeof got;
  if ((te === 'number' || te === 'bigint') && (tg === 'number' || tg === 'bigint')) {
    if (te === 'bigint' && tg === 'bigint') return exp === got;
    if (te === 'bigint') return Number.isInteger(got) && BigInt(got) === exp;
    // expected is a float64 (or a safe integer)
    const g = Number(got);
    if (exp === 0 && g === 0) return Object.is(exp, g);
    return exp === g;
  }
  if (te !== tg) return false;
  if (te === 'object') {
    if (Array.isArray(exp) !== Array.isArray(got)) return false;
    if (Array.isArray(exp)) return exp.length === got.length && exp.every((e, k) => sameValue(e, got[k]));
    const ke = Object.keys(exp), kg = Object.keys(got);
    return ke.length === kg.length && ke.every((k, j) => kg[j] === k && sameValue(exp[k], got[k]));
  }
  return exp === got;
}

export function show(v) {
  return JSON.stringify(v, (k, x) => (typeof x === 'bigint' ? `${x}n` : Object.is(x, -0) ? '-0.0' : x));
}

// Finds the first differing row between expected rows and parq's lines.
export function compareRows(expected, lines) {
  if (expected.length !== lines.length) {
    const n = Math.min(expected.length, lines.length);
    for (let r = 0; r < n; r++) if (!sameValue(expected[r], parseJson(lines[r]))) return diffAt(expected[r], parseJson(lines[r]), r);
    return `row count differs: engine ${expected.length}, parq ${lines.length}`;
  }
  for (let r = 0; r < expected.length; r++) {
    const got = parseJson(lines[r]);
    if (!sameValue(expected[r], got)) return diffAt(expected[r], got, r);
  }
  return null;
}

function diffAt(exp, got, r) {
  const cols = [];
  if (exp && got && typeof exp === 'object' && typeof got === 'object') {
    for (const k of new Set([...Object.keys(exp), ...Object.keys(got)])) {
      if (!sameValue(exp[k] ?? null, got[k] ?? null) || !(k in exp) || !(k in got)) cols.push(k);
    }
  }
  return `line ${r + 1}` + (cols.length ? ` column(s) ${cols.join(',')}: ` + cols.slice(0, 3).map(
    (k) => `${k}: engine=${show(exp[k])} parq=${show(got[k])}`).join('; ') : `: engine=${show(exp)} parq=${show(got)}`);
}

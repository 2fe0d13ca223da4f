// Random predicates over the data set's columns, each written twice: in
// parq's --where syntax and in DuckDB's SQL. The two texts mean the same
// thing under SQL's three-valued logic; only the spelling differs (operator
// variants, literal forms, LIKE against starts_with, column names).
import { pickLiteral, makeRng } from './data.mjs';

const OPS = ['=', '!=', '<', '<=', '>', '>='];
const PARQ_SPELLING = { '=': ['=', '=='], '!=': ['!=', '<>'], '<': ['<'], '<=': ['<='], '>': ['>'], '>=': ['>='] };

// The column as each side names it: parq's dotted path (sometimes with
// quoted parts), DuckDB's column reference.
function names(c, r) {
  if (c.struct) {
    const q = r.chance(0.3);
    return { parq: q ? `"${c.struct}"."${c.field}"` : `${c.struct}.${c.field}`, duck: `${c.struct}.${c.field}` };
  }
  if (c.name.startsWith('"')) return { parq: c.name, duck: c.name };
  return { parq: r.chance(0.1) ? `"${c.name}"` : c.name, duck: c.name };
}

const isText = (c) => c.type.kind === 'string';
const likeSafe = (p) => !/[%_\\]/.test(p);

// A prefix for LIKE / starts_with: a cut of a value of the column, or a special.
function pickPrefix(c, r) {
  const x = r();
  if (x < 0.6) {
    const cps = [...r.pick(c.values)];
    return cps.slice(0, r.int(0, Math.min(cps.length, 90))).join('');
  }
  return r.pick(['', 'app', 'apple', 'ban', 'é', '日', 'long-shared-prefix-long-shared-prefix-long-shared-prefix-long-shared-prefix-l',
    '\u{10FFFF}\u{10FFFF}', 'k0001', 'zz', 'red', 'Z']);
}

function leaf(cols, r) {
  const c = r.pick(cols);
  const t = c.type;
  const n = names(c, r);
  const lit = () => pickLiteral(c, r);
  const P = (v) => t.parq(v, r), D = (v) => t.sql(v);
  const kinds = [['cmp', 40], ['in', 12], ['notin', 5], ['between', 10], ['notbetween', 4], ['isnull', 6], ['isnotnull', 4],
    ['cmpnull', 2], ['innull', 3]];
  if (isText(c)) kinds.push(['like', 8], ['notlike', 3], ['starts', 5], ['likeeq', 2]);
  let total = 0;
  for (const [, w] of kinds) total += w;
  let x = r() * total, kind;
  for (const [k, w] of kinds) { if ((x -= w) < 0) { kind = k; break; } }
  switch (kind) {
    case 'cmp': {
      const op = r.pick(OPS), v = lit();
      const pop = r.pick(PARQ_SPELLING[op]);
      if (r.chance(0.15)) return { parq: `${P(v)} ${pop} ${n.parq}`, duck: `${D(v)} ${op} ${n.duck}` };
      return { parq: `${n.parq} ${pop} ${P(v)}`, duck: `${n.duck} ${op} ${D(v)}` };
    }
    case 'in': case 'notin': case 'innull': {
      const k = r.chance(0.15) ? r.int(10, 60) : r.int(1, 5); // now and then a long list
      const vs = Array.from({ length: k }, lit);
      const not = kind === 'notin' || (kind === 'innull' && r.chance(0.5)) ? 'NOT ' : '';
      const ps = vs.map(P), ds = vs.map(D);
      if (kind === 'innull') { const at = r.int(0, k); ps.splice(at, 0, 'NULL'); ds.splice(at, 0, 'NULL'); }
      return { parq: `${n.parq} ${not}IN (${ps.join(', ')})`, duck: `${n.duck} ${not}IN (${ds.join(', ')})` };
    }
    case 'between': case 'notbetween': {
      let a = lit(), b = lit();
      if (!r.chance(0.1) && t.cmp(a, b) > 0) [a, b] = [b, a]; // now and then an empty range
      const not = kind === 'notbetween' ? 'NOT ' : '';
      return { parq: `${n.parq} ${not}BETWEEN ${P(a)} AND ${P(b)}`, duck: `${n.duck} ${not}BETWEEN ${D(a)} AND ${D(b)}` };
    }
    case 'isnull': return { parq: `${n.parq} IS NULL`, duck: `${n.duck} IS NULL` };
    case 'isnotnull': return { parq: `${n.parq} IS NOT NULL`, duck: `${n.duck} IS NOT NULL` };
    case 'cmpnull': {
      const op = r.pick(OPS);
      return { parq: `${n.parq} ${op} NULL`, duck: `${n.duck} ${op} NULL` };
    }
    case 'like': case 'notlike': case 'starts': {
      let p = pickPrefix(c, r);
      const q = (s) => `'${s.replace(/'/g, "''")}'`;
      const duck = `starts_with(${n.duck}, ${q(p)})`;
      if (kind === 'starts') return { parq: `starts_with(${n.parq}, ${q(p)})`, duck };
      if (!likeSafe(p)) p = p.replace(/[%_\\]/g, '');
      const not = kind === 'notlike' ? 'NOT ' : '';
      return { parq: `${n.parq} ${not}LIKE ${q(p + '%')}`, duck: `${not ? 'NOT ' : ''}starts_with(${n.duck}, ${q(p)})` };
    }
    case 'likeeq': { // LIKE without a wildcard is equality
      const v = r.pick(c.values).replace(/[%_\\]/g, '');
      const q = (s) => `'${s.replace(/'/g, "''")}'`;
      return { parq: `${n.parq} LIKE ${q(v)}`, duck: `${n.duck} = ${q(v)}` };
    }
  }
  throw new Error('no predicate kind');
}

function node(cols, r, depth) {
  if (depth <= 0 || r.chance(0.35)) return leaf(cols, r);
  const x = r();
  if (x < 0.15) {
    const e = node(cols, r, depth - 1);
    return { parq: `NOT (${e.parq})`, duck: `NOT (${e.duck})` };
  }
  const op = x < 0.6 ? 'AND' : 'OR';
  const parts = Array.from({ length: r.int(2, 3) }, () => node(cols, r, depth - 1));
  // parq: parentheses around each part; DuckDB the same
  return { parq: parts.map((p) => `(${p.parq})`).join(` ${r.chance(0.2) ? op.toLowerCase() : op} `),
    duck: parts.map((p) => `(${p.duck})`).join(` ${op} `) };
}

// Predicate number k of the run with `seed`: its own generator, so one case
// can be regenerated alone (DIFF_ONLY=k).
export function predicate(columns, seed, k) {
  const r = makeRng(BigInt.asUintN(32, BigInt(seed) * 1000003n + BigInt(k) * 7919n + 17n));
  // a focus column now and then, so that single-column tests get deep coverage
  const cols = r.chance(0.5) ? [r.pick(columns)] : columns;
  const e = node(cols, r, r.int(0, 3));
  return e;
}

// Differential test of `parq cat --where` against DuckDB.
//
// One seeded table (data.mjs) is written by DuckDB to Parquet, then rewritten
// by `parq rewrite` under several writer settings (page versions, dictionary
// on/off and fallback, page sizes, row group sizes, page index, bloom
// filters, no statistics). Seeded random predicates (predicates.mjs), each
// in parq's syntax and in DuckDB's SQL, then run on every file. A case passes
// when:
//   rows     parq's --where rows equal, as a multiset, DuckDB's
//            SELECT * FROM read_parquet(FILE) WHERE ... (canonical form);
//   sound    parq's --where lines are, in order and byte for byte, the lines
//            of a full `parq cat FILE` whose rows DuckDB's WHERE keeps when
//            it evaluates the predicate on the table in memory (no Parquet
//            pruning involved);
//   explain  --explain's counts add up (every row considered is pruned,
//            outside the selection or decoded; decoded minus filtered out is
//            returned) and prune no row that matches: rows in pruned row
//            groups at most those of the row groups without a match, all
//            pruned rows at most the rows that do not match;
//   options  for about a third of the cases, --offset/--limit, --row-groups
//            or --columns id (sometimes with --threads 2) keep what they
//            should of the --where rows;
//   count    `parq count FILE --where` (once the tool has it) counts them.
// Each file as a whole is one more case ("read"): DuckDB's rows equal parq
// cat's. A known DuckDB quirk (BLOB bloom filter probes, see duckQuirk) is
// counted and reported, not failed.
// Prints `differential: N passed, M failed` last; exits 1 on any failure.
// Env: DIFF_CASES (cases in all, default 1800), DIFF_SEED (default 1;
//      "random" picks one), DIFF_ONLY=k (predicate k alone), DIFF_FILES=a,b
//      (a subset of the file variants), DIFF_KEEP=1 (keep the files),
//      DIFF_JOBS (concurrent cases, default 3), DIFF_VERBOSE=1,
//      DIFF_SHARE=K/N (the predicates k with k % N == K).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFile, spawn } from 'node:child_process';
import readline from 'node:readline';
import { promisify } from 'node:util';
import { makeTable, tableSql, makeRng, N_ROWS, DUCK_ROW_GROUP_SIZE } from './data.mjs';
import { predicate } from './predicates.mjs';
import { connect, timeHints, canonicalRows, sqlPath } from './duck.mjs';
import { parseJson, sameValue, show } from '../interop/canonical.mjs';
import { shareOf } from '../interop/share.mjs';

const run = promisify(execFile);
const parq = process.argv[2];
if (!parq || !fs.existsSync(parq)) { console.error('usage: node main.mjs PARQ_BINARY'); process.exit(2); }
const t0 = Date.now();
const seed = process.env.DIFF_SEED === 'random' ? Math.floor(Math.random() * 2 ** 31) : Number(process.env.DIFF_SEED ?? 1);
const totalCases = Number(process.env.DIFF_CASES ?? 1800);
const jobs = Number(process.env.DIFF_JOBS ?? 3);
const verbose = !!process.env.DIFF_VERBOSE;
console.log(`differential: seed ${seed} (DIFF_SEED=${seed} reproduces this run)`);

// ---------------------------------------------------------------- files
// Writer settings of the variants `parq rewrite` makes of DuckDB's file.
const BLOOM_ALL = ['i8', 'i32', 'i64', 'u32', 'u64', 'f32', 'f64', 's', 'sc', 'x y', 'd4', 'd18', 'd38', 'dt', 'tm', 'ts',
  'tsn', 'tstz', 'bl', 'u', 'st.a', 'st.b'].flatMap((c) => ['--bloom-filter', c]);
const VARIANTS = {
  'v1-dict-pages100': ['--row-group-rows', '1000', '--page-rows', '100'],
  'v2-plain-zstd': ['--page-version', '2', '--dictionary', 'off', '--page-bytes', '2048', '--row-group-rows', '1700', '--codec', 'zstd'],
  'v1-bloom': ['--row-group-rows', '1200', '--page-rows', '300', ...BLOOM_ALL],
  'v2-dict-fallback-bloom': ['--page-version', '2', '--dictionary-entries', '40', '--page-rows', '150', '--row-group-rows', '2500',
    ...BLOOM_ALL],
  'v1-plain-bloom-1group': ['--dictionary', 'off', '--row-group-rows', '100000', '--page-bytes', '4096', ...BLOOM_ALL],
  'v1-no-page-index-delta': ['--page-index', 'off', '--row-group-rows', '500', '--page-rows', '50', '--encoding', 's=delta_byte_array',
    '--encoding', 'ss=delta_length_byte_array', '--encoding', 'f64=byte_stream_split', '--encoding', 'i64=delta_binary_packed',
    '--encoding', 'd18=delta_binary_packed', '--encoding', 'f32=byte_stream_split'],
  // (DuckDB 1.5 reads BYTE_STREAM_SPLIT only for FLOAT and DOUBLE)
  'v2-no-stats': ['--page-version', '2', '--stats', 'off', '--page-index', 'off', '--row-group-rows', '2000'],
};

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parq-differential-'));
const table = makeTable(seed);
const setup = await connect();
for (const s of tableSql(table)) await setup.run(s);
const files = [];
const base = path.join(dir, 'duckdb.parquet');
await setup.run(`COPY (SELECT * FROM t ORDER BY id) TO ${sqlPath(base)} (FORMAT parquet, ROW_GROUP_SIZE ${DUCK_ROW_GROUP_SIZE})`);
files.push({ name: 'duckdb', file: base, settings: `DuckDB COPY (ROW_GROUP_SIZE ${DUCK_ROW_GROUP_SIZE})` });
try {
  const f = path.join(dir, 'duckdb-v2.parquet');
  await setup.run(`COPY (SELECT * FROM t ORDER BY id) TO ${sqlPath(f)} (FORMAT parquet, PARQUET_VERSION v2, ROW_GROUP_SIZE 1000)`);
  files.push({ name: 'duckdb-v2', file: f, settings: 'DuckDB COPY (PARQUET_VERSION v2, ROW_GROUP_SIZE 1000)' });
} catch (e) { console.log(`differential: DuckDB wrote no PARQUET_VERSION v2 file (${e.message.split('\n')[0]})`); }
for (const [name, args] of Object.entries(VARIANTS)) {
  const f = path.join(dir, `${name}.parquet`);
  await run(parq, ['rewrite', base, f, ...args]);
  files.push({ name, file: f, settings: `parq rewrite ${args.join(' ')}`, bloomBlob: args.some((a, i) => a === 'bl' && args[i - 1] === '--bloom-filter') });
}
const only = process.env.DIFF_FILES?.split(',');
files.forEach((f, i) => { f.index = i; });
const selected = files.filter((f) => !only || only.includes(f.name));

// Per file: the lines of a full `parq cat` by id, row group sizes, DuckDB's time hints.
const idOf = (line) => {
  const m = /^\{"id":(-?\d+)[,}]/.exec(line);
  if (!m) throw new Error(`a line without an id first: ${line.slice(0, 80)}`);
  return Number(m[1]);
};
const linesOf = (out) => (out.length ? out.slice(0, -1).split('\n') : []);
for (const f of selected) {
  const out = (await run(parq, ['cat', f.file], { maxBuffer: 1 << 30 })).stdout;
  f.lines = new Map();
  for (const line of linesOf(out)) f.lines.set(idOf(line), line);
  f.parsed = new Map();
  const meta = JSON.parse((await run(parq, ['meta', f.file, '--json'], { maxBuffer: 1 << 30 })).stdout);
  f.groups = [];
  let first = 0;
  for (const g of meta.row_groups) { f.groups.push([first, first + Number(g.num_rows)]); first += Number(g.num_rows); }
  f.hints = await timeHints(setup, f.file);
  if (f.lines.size !== N_ROWS) throw new Error(`${f.name}: parq cat printed ${f.lines.size} rows, not ${N_ROWS}`);
  f.duckRows = new Map();
  for (const row of await canonicalRows(setup, `SELECT * FROM read_parquet(${sqlPath(f.file)})`, f.hints)) f.duckRows.set(Number(row.id), row);
}
console.log(`differential: ${selected.length} files (${N_ROWS} rows each) in ${((Date.now() - t0) / 1000).toFixed(1)} s: `
  + selected.map((f) => `${f.name} (${f.groups.length} row groups)`).join(', '));

// ---------------------------------------------------------------- cases
const parsedLine = (f, id) => {
  let v = f.parsed.get(id);
  if (v === undefined) { v = parseJson(f.lines.get(id)); f.parsed.set(id, v); }
  return v;
};

// --explain's counts, by the words that follow each number.
function explainCounts(text) {
  const num = (re) => { const m = re.exec(text); return m ? Number(m[1]) : null; };
  return {
    groupsConsidered: num(/row groups: (\d+) considered/),
    groupsPruned: ['pruned by the row selection', 'by statistics', 'by dictionaries', 'by bloom filters']
      .map((w) => num(new RegExp(`(\\d+) ${w}`))),
    pagesPruned: num(/(\d+) pruned by the page index/),
    considered: num(/rows: (\d+) considered/),
    inPrunedGroups: num(/(\d+) in pruned row groups/),
    inPrunedPages: num(/(\d+) in pruned pages/),
    outside: num(/(\d+) outside the selection/),
    decoded: num(/(\d+) decoded/),
    filteredOut: num(/(\d+) filtered out/),
    offsetSkipped: num(/(\d+) skipped by the offset/),
    returned: num(/(\d+) returned/),
  };
}
const SMALL_RESULT = 100;
const prunedTotals = { groupsByStats: 0, groupsByDict: 0, groupsByBloom: 0, pages: 0, rowsInGroups: 0, rowsInPages: 0 };

// Commands run through spawner.mjs processes (see there why).
function makeSpawner() {
  const child = spawn(process.execPath, [new URL('./spawner.mjs', import.meta.url).pathname], { stdio: ['pipe', 'pipe', 'inherit'] });
  const waiting = new Map();
  let nextId = 0;
  readline.createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', (line) => {
    const reply = JSON.parse(line);
    waiting.get(reply.id)(reply);
    waiting.delete(reply.id);
  });
  return {
    run: (file, args) => new Promise((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      child.stdin.write(JSON.stringify({ id, file, args }) + '\n');
    }),
    close: () => child.stdin.end(),
  };
}
const spawners = Array.from({ length: 2 }, makeSpawner);
let spawnTurn = 0;
const parqRun = (args) => spawners[spawnTurn++ % spawners.length].run(parq, args);
// `parq count FILE --where EXPR`, where the tool has it, must count cat's rows.
const hasCount = (await parqRun(['count', '--help'])).code === 0;
if (!hasCount) console.log('differential: parq has no count command; cat --where alone is checked');

async function runCase(conn, f, k, pred, refIds) {
  const problems = [];
  const [cat, explain] = await Promise.all([
    parqRun(['cat', f.file, '--where', pred.parq]),
    parqRun(['cat', f.file, '--where', pred.parq, '--explain']),
  ]);
  if (cat.code !== 0) return [`parq cat --where exited ${cat.code}: ${cat.err.trim().split('\n')[0]}`];
  const got = linesOf(cat.out);
  if (hasCount) {
    const cnt = await parqRun(['count', f.file, '--where', pred.parq]);
    const m = /(\d+)/.exec(cnt.out);
    if (cnt.code !== 0 || !m || Number(m[1]) !== got.length)
      problems.push(`count: parq count --where printed ${JSON.stringify(cnt.out.trim())} (exit ${cnt.code}), cat --where ${got.length} rows`);
  }
  const gotIds = got.map(idOf);

  // rows: DuckDB's read_parquet with the WHERE clause, as a multiset. The
  // ids DuckDB keeps come from SELECT id; each kept row's values are
  // DuckDB's reading of that row (f.duckRows, from one SELECT * of the file:
  // converting rows to canonical form is what costs), or, when few rows
  // match, those of SELECT * with the WHERE clause itself.
  let duckIds, duckRows;
  try {
    duckIds = (await conn.runAndReadAll(`SELECT id FROM read_parquet(${sqlPath(f.file)}) WHERE ${pred.duck}`))
      .getRows().map((r) => Number(r[0]));
    if (duckIds.length <= SMALL_RESULT) {
      duckRows = await canonicalRows(conn, `SELECT * FROM read_parquet(${sqlPath(f.file)}) WHERE ${pred.duck}`, f.hints);
      const again = duckRows.map((r) => Number(r.id));
      if (firstIdDiff(duckIds, again)) problems.push(`DuckDB: SELECT * kept ids ${again.slice(0, 8)}, SELECT id ${duckIds.slice(0, 8)}`);
    } else {
      duckRows = duckIds.map((id) => f.duckRows.get(id));
    }
  } catch (e) {
    return [`DuckDB failed: ${e.message.split('\n')[0]}`];
  }
  const byId = (a, b) => a - b;
  const sortedGot = [...gotIds].sort(byId), sortedDuck = [...duckIds].sort(byId);
  const idDiff = firstIdDiff(sortedDuck, sortedGot);
  if (idDiff && duckQuirk(f, pred, duckIds, refIds, gotIds)) {
    quirks.push(`${f.name} case ${k}: ${idDiff}`);
  } else if (idDiff) {
    const inDuck = new Set(duckIds), inParq = new Set(gotIds);
    const firstMissing = sortedDuck.find((id) => !inParq.has(id)), firstExtra = sortedGot.find((id) => !inDuck.has(id));
    problems.push(`rows: DuckDB read_parquet ${duckIds.length} rows, parq ${got.length}; ${idDiff}`
      + (firstMissing !== undefined ? `\n      first row DuckDB keeps and parq does not: ${f.lines.get(firstMissing)}` : '')
      + (firstExtra !== undefined ? `\n      first row parq keeps and DuckDB does not: ${f.lines.get(firstExtra)}` : ''));
  } else {
    const lineById = new Map(got.map((l, i) => [gotIds[i], l]));
    for (const exp of duckRows) {
      const id = Number(exp.id), line = lineById.get(id);
      if (line !== f.lines.get(id)) { problems.push(`rows: id ${id}: --where line differs from cat's: ${line} vs ${f.lines.get(id)}`); break; }
      if (duckIds.length > SMALL_RESULT) continue; // f.duckRows agree with parq cat (the file's 'read' case)
      const mine = parsedLine(f, id);
      if (!sameValue(exp, mine)) {
        const cols = Object.keys(exp).filter((c) => !sameValue(exp[c], mine[c]));
        problems.push(`rows: id ${id} column(s) ${cols.join(',')}: DuckDB=${show(cols.map((c) => exp[c]))} parq=${show(cols.map((c) => mine[c]))}`);
        break;
      }
    }
  }

  // sound: the full cat's lines that DuckDB's in-memory WHERE keeps, in order
  const expLines = refIds.map((id) => f.lines.get(id));
  if (expLines.length !== got.length || expLines.some((l, i) => l !== got[i])) {
    const i = expLines.findIndex((l, j) => l !== got[j]);
    const missing = refIds.filter((id) => !gotIds.includes(id)), extra = gotIds.filter((id) => !refIds.includes(id));
    problems.push(`sound: parq returned ${got.length} rows, the full cat filtered by DuckDB ${expLines.length}`
      + (missing.length ? `; missing ids ${missing.slice(0, 8).join(',')}${missing.length > 8 ? '...' : ''}` : '')
      + (extra.length ? `; extra ids ${extra.slice(0, 8).join(',')}${extra.length > 8 ? '...' : ''}` : '')
      + (i >= 0 ? `\n      first difference at line ${i + 1}:\n      expected ${expLines[i] ?? '(none)'}\n      parq     ${got[i] ?? '(none)'}` : ''));
  }

  // options: --offset/--limit, --row-groups, --columns and --threads with
  // --where keep what they keep from the rows --where alone gives
  const xr = makeRng(BigInt.asUintN(32, BigInt(seed) * 2654435761n + BigInt(k) * 40503n + BigInt(f.index)));
  if (xr.chance(0.35)) {
    const what = xr.pick(['slice', 'groups', 'columns']);
    let args, expected;
    if (what === 'slice') {
      const o = xr.int(0, got.length + 1), l = xr.int(1, got.length + 2);
      args = ['--offset', String(o), '--limit', String(l)];
      expected = got.slice(o, o + l);
    } else if (what === 'groups') {
      const gs = f.groups.map((_, g) => g).filter(() => xr.chance(0.6));
      if (!gs.length) gs.push(0);
      for (let i = gs.length - 1; i > 0; i--) { const j = xr.int(0, i); [gs[i], gs[j]] = [gs[j], gs[i]]; }
      args = ['--row-groups', gs.join(',')];
      expected = gs.flatMap((g) => got.filter((l, i) => gotIds[i] >= f.groups[g][0] && gotIds[i] < f.groups[g][1]));
    } else {
      args = ['--columns', 'id'];
      expected = gotIds.map((id) => `{"id":${id}}`);
    }
    if (xr.chance(0.3)) args.push('--threads', '2');
    const o = await parqRun(['cat', f.file, '--where', pred.parq, ...args]);
    const lines = o.code === 0 ? linesOf(o.out) : null;
    if (!lines) problems.push(`options: parq cat --where ... ${args.join(' ')} exited ${o.code}: ${o.err.trim().split('\n')[0]}`);
    else if (lines.length !== expected.length || lines.some((l, i) => l !== expected[i])) {
      const i = lines.findIndex((l, j) => l !== expected[j]);
      problems.push(`options: with ${args.join(' ')}: ${lines.length} rows, expected ${expected.length}`
        + `\n      first difference at line ${(i < 0 ? lines.length : i) + 1}:\n      expected ${expected[i < 0 ? lines.length : i] ?? '(none)'}\n      parq     ${lines[i < 0 ? lines.length : i] ?? '(none)'}`);
    }
  }

  // explain: the counts add up and prune no matching row
  if (explain.code !== 0) {
    problems.push(`explain: exited ${explain.code}: ${explain.err.trim().split('\n')[0]}`);
  } else {
    const e = explainCounts(explain.out);
    const bad = [];
    if (Object.values(e).some((v) => v === null || (Array.isArray(v) && v.includes(null)))) bad.push('an unreadable count');
    else {
      const matchGroups = new Set(refIds.map((id) => f.groups.findIndex(([a, b]) => id >= a && id < b)));
      const emptyGroupRows = f.groups.reduce((s, [a, b], g) => s + (matchGroups.has(g) ? 0 : b - a), 0);
      const emptyGroups = f.groups.length - matchGroups.size;
      if (e.considered !== N_ROWS) bad.push(`${e.considered} rows considered, not ${N_ROWS}`);
      if (e.groupsConsidered !== f.groups.length) bad.push(`${e.groupsConsidered} row groups considered, not ${f.groups.length}`);
      if (e.inPrunedGroups + e.inPrunedPages + e.outside + e.decoded !== e.considered)
        bad.push(`pruned ${e.inPrunedGroups} + ${e.inPrunedPages} + outside ${e.outside} + decoded ${e.decoded} != considered ${e.considered}`);
      if (e.decoded - e.filteredOut - e.offsetSkipped !== e.returned)
        bad.push(`decoded ${e.decoded} - filtered out ${e.filteredOut} - offset ${e.offsetSkipped} != returned ${e.returned}`);
      if (e.returned !== got.length) bad.push(`returned ${e.returned}, cat printed ${got.length}`);
      if (e.inPrunedGroups > emptyGroupRows) bad.push(`${e.inPrunedGroups} rows in pruned row groups, only ${emptyGroupRows} in row groups without a match`);
      const groupsPruned = e.groupsPruned.reduce((a, b) => a + b, 0);
      if (groupsPruned > emptyGroups) bad.push(`${groupsPruned} row groups pruned, only ${emptyGroups} without a match`);
      if (e.inPrunedGroups + e.inPrunedPages + e.outside > N_ROWS - refIds.length)
        bad.push(`${e.inPrunedGroups + e.inPrunedPages + e.outside} rows pruned, only ${N_ROWS - refIds.length} do not match`);
      prunedTotals.groupsByStats += e.groupsPruned[1]; prunedTotals.groupsByDict += e.groupsPruned[2];
      prunedTotals.groupsByBloom += e.groupsPruned[3]; prunedTotals.pages += e.pagesPruned;
      prunedTotals.rowsInGroups += e.inPrunedGroups; prunedTotals.rowsInPages += e.inPrunedPages;
    }
    if (bad.length) problems.push(`explain: ${bad.join('; ')}\n${explain.out.trimEnd().replace(/^/gm, '      | ')}`);
  }
  return problems;
}

// Known DuckDB 1.5 quirk: its bloom filter probe hashes a BLOB value with
// bytes outside printable ASCII as something other than the raw bytes (its
// escaped text, it seems), so read_parquet prunes row groups of parq's
// files whose bloom filter on `bl` does hold the value (parquet_bloom_probe
// says the same). Such a case counts as passed when parq's rows are exactly
// those DuckDB keeps from the table in memory and read_parquet only misses
// rows.
const quirks = [];
function duckQuirk(f, pred, duckIds, refIds, gotIds) {
  if (!f.bloomBlob || !/\bbl (=|IN)/.test(pred.duck)) return false;
  const ref = new Set(refIds);
  return gotIds.length === refIds.length && gotIds.every((id) => ref.has(id)) && duckIds.every((id) => ref.has(id));
}

function firstIdDiff(exp, got) {
  const a = new Map(), b = new Map();
  for (const x of exp) a.set(x, (a.get(x) ?? 0) + 1);
  for (const x of got) b.set(x, (b.get(x) ?? 0) + 1);
  const missing = [...a.keys()].filter((x) => (b.get(x) ?? 0) < a.get(x));
  const extra = [...b.keys()].filter((x) => (a.get(x) ?? 0) < b.get(x));
  if (!missing.length && !extra.length) return null;
  return (missing.length ? `missing in parq (ids): ${missing.slice(0, 8).join(',')}${missing.length > 8 ? '...' : ''}` : '')
    + (missing.length && extra.length ? '; ' : '')
    + (extra.length ? `extra in parq (ids): ${extra.slice(0, 8).join(',')}${extra.length > 8 ? '...' : ''}` : '');
}

// ---------------------------------------------------------------- run
const nPredicates = Math.max(1, Math.ceil(totalCases / selected.length));
// DIFF_SHARE=K/N keeps the predicates k with k % N == K: a share of the
// cases, which scripts/test.sh turns from commit to commit.
const share = shareOf('DIFF_SHARE');
const ks = (process.env.DIFF_ONLY !== undefined ? process.env.DIFF_ONLY.split(',').map(Number) : [...Array(nPredicates).keys()])
  .filter(share.keeps);
const shareNote = share.note('predicates');
if (shareNote) console.log(`differential: ${shareNote}`);
let passed = 0, failed = 0;
const failures = [];
const conns = [];
for (let j = 0; j < jobs; j++) conns.push(await connect());

// Each file as a whole: DuckDB's rows (canonical) equal parq cat's, so
// that a case's comparison of rows is about the filter.
for (const f of selected) {
  let problem = null;
  for (const [id, exp] of f.duckRows) {
    const mine = f.lines.has(id) ? parsedLine(f, id) : null;
    if (!mine || !sameValue(exp, mine)) {
      const cols = mine ? Object.keys(exp).filter((c) => !sameValue(exp[c], mine[c])) : ['(row missing)'];
      problem = `read: id ${id} column(s) ${cols.join(',')}: DuckDB=${show(cols.map((c) => exp[c]))} parq=${show(cols.map((c) => mine?.[c]))}`;
      break;
    }
  }
  if (f.duckRows.size !== f.lines.size) problem = `read: DuckDB ${f.duckRows.size} rows, parq ${f.lines.size}`;
  record(f, 'read', { parq: '(none: the whole file)', duck: '(none)' }, problem ? [problem] : [], N_ROWS);
}

let next = 0;
async function worker(j) {
  const conn = conns[j];
  while (next < ks.length) {
    const k = ks[next++];
    if (ks.length >= 50 && next % Math.ceil(ks.length / 10) === 0)
      console.log(`differential: predicate ${next}/${ks.length}, ${passed} passed, ${failed} failed, ${((Date.now() - t0) / 1000).toFixed(0)} s`);
    const pred = predicate(table.columns, seed, k);
    let refIds;
    try {
      refIds = (await conn.runAndReadAll(`SELECT id FROM t WHERE ${pred.duck} ORDER BY id`)).getRows().map((r) => Number(r[0]));
    } catch (e) {
      for (const f of selected) record(f, k, pred, [`DuckDB rejected the predicate: ${e.message.split('\n')[0]}`]);
      continue;
    }
    for (const f of selected) {
      let problems;
      try { problems = await runCase(conn, f, k, pred, refIds); } catch (e) { problems = [`crashed: ${e.stack}`]; }
      record(f, k, pred, problems, refIds.length);
    }
  }
}
function record(f, k, pred, problems, matches) {
  if (!problems.length) {
    passed++;
    if (verbose) console.log(`PASS ${f.name} case ${k} (${matches} rows): ${pred.parq}`);
    return;
  }
  failed++;
  const text = [`FAIL ${f.name} | seed ${seed} case ${k} (DIFF_SEED=${seed} DIFF_ONLY=${k} DIFF_FILES=${f.name})`,
    `  file:     ${f.file} (${f.settings})`,
    `  parq:     --where ${JSON.stringify(pred.parq)}`,
    `  duckdb:   WHERE ${pred.duck}`,
    ...problems.map((p) => `  ${p}`)].join('\n');
  failures.push(text);
  console.log(text);
}
await Promise.all(conns.map((_, j) => worker(j)));

console.log(`differential: pruned ${prunedTotals.groupsByStats} row groups by statistics, ${prunedTotals.groupsByDict} by dictionaries, `
  + `${prunedTotals.groupsByBloom} by bloom filters, ${prunedTotals.pages} pages by the page index `
  + `(${prunedTotals.rowsInGroups} + ${prunedTotals.rowsInPages} rows)`);
if (quirks.length) {
  console.log(`differential: ${quirks.length} cases where DuckDB's read_parquet missed rows through its BLOB bloom filter probe `
    + `(a DuckDB quirk; parq matched DuckDB's in-memory WHERE), e.g. ${quirks[0]}`);
}
if (!process.env.DIFF_KEEP) fs.rmSync(dir, { recursive: true, force: true }); else console.log('differential: files kept in ' + dir);
console.log(`differential: ${ks.length} predicates x ${selected.length} files in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
console.log(`differential: ${passed} passed, ${failed} failed`);
for (const s of spawners) s.close();
process.exit(failed ? 1 : 0);

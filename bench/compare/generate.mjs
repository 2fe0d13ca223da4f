// Generates the benchmark files with DuckDB: a lineitem-like table (6 million
// rows, 16 columns: integers, decimals, dates, low-cardinality flags, short
// and long strings) as SNAPPY, ZSTD and uncompressed Parquet, plus a wide and
// a narrow numeric file. Deterministic (hash-derived values), so reruns give
// the same files.
// Then the DuckDB-written lineitem rewritten by other writers from npm, each
// with its default layout apart from the codec (peer_generate.mjs): Polars
// (17 row groups of 368,640 rows, 1 MiB pages: 1-10 per chunk) as SNAPPY and
// ZSTD, and arrow-rs through parquet-wasm (6 row groups of 1 Mi rows, pages
// of about 20,000 rows: 32-44 per chunk) as SNAPPY. These writers give the
// same bytes on every run too (checked with cmp).
// A file that exists is kept as it is.
import { DuckDBInstance } from '@duckdb/node-api';
import { execFileSync } from 'node:child_process';
import { closeSync, existsSync, fsyncSync, mkdirSync, openSync, readSync } from 'node:fs';

export const dataDir = new URL('./data/', import.meta.url).pathname;
const rows = Number(process.env.PARQ_BENCH_ROWS ?? 6_000_000);

const lineitem = `
  SELECT
    (i // 4 + 1)::BIGINT AS l_orderkey,
    (hash(i, 1) % 200000 + 1)::INTEGER AS l_partkey,
    (hash(i, 2) % 10000 + 1)::INTEGER AS l_suppkey,
    (i % 4 + 1)::INTEGER AS l_linenumber,
    (hash(i, 3) % 50 + 1)::DECIMAL(15, 2) AS l_quantity,
    ((hash(i, 4) % 10000000) / 100)::DECIMAL(15, 2) AS l_extendedprice,
    ((hash(i, 5) % 11) / 100)::DECIMAL(15, 2) AS l_discount,
    ((hash(i, 6) % 9) / 100)::DECIMAL(15, 2) AS l_tax,
    ['A', 'N', 'R'][(hash(i, 7) % 3)::BIGINT + 1] AS l_returnflag,
    ['O', 'F'][(hash(i, 8) % 2)::BIGINT + 1] AS l_linestatus,
    DATE '1992-01-02' + (hash(i, 9) % 2500)::INTEGER AS l_shipdate,
    DATE '1992-01-31' + (hash(i, 10) % 2500)::INTEGER AS l_commitdate,
    DATE '1992-01-03' + (hash(i, 11) % 2500)::INTEGER AS l_receiptdate,
    ['DELIVER IN PERSON', 'COLLECT COD', 'NONE', 'TAKE BACK RETURN'][(hash(i, 12) % 4)::BIGINT + 1] AS l_shipinstruct,
    ['AIR', 'MAIL', 'SHIP', 'TRUCK', 'RAIL', 'REG AIR', 'FOB'][(hash(i, 13) % 7)::BIGINT + 1] AS l_shipmode,
    substr(md5(i::VARCHAR) || md5((i * 7)::VARCHAR), 1, (10 + hash(i, 14) % 34)::BIGINT) AS l_comment
  FROM range(${rows}) t(i)`;

// The same rows with comments made of words, as TPC-H's are (sentences of a
// small vocabulary, 10 to 43 characters), rather than hex digits: text that
// general-purpose codecs compress by half or more, where the hex comments
// above shrink little.
const vocabulary = {
  adverb: ['quickly', 'slowly', 'carefully', 'furiously', 'blithely', 'quietly', 'boldly', 'evenly', 'finally', 'silently', 'ruthlessly', 'daringly'],
  adjective: ['regular', 'final', 'special', 'pending', 'ironic', 'express', 'even', 'bold', 'unusual', 'silent', 'careful', 'ruthless', 'fluffy', 'close'],
  noun: ['packages', 'requests', 'accounts', 'deposits', 'ideas', 'instructions', 'theodolites', 'foxes', 'pinto beans', 'platelets', 'dependencies', 'excuses', 'asymptotes', 'courts', 'dolphins', 'frets', 'warthogs', 'sheaves', 'orbits', 'pearls'],
  verb: ['sleep', 'wake', 'haggle', 'nag', 'use', 'boost', 'affix', 'detect', 'integrate', 'cajole', 'doze', 'maintain', 'solve', 'engage', 'print', 'lose'],
  preposition: ['about', 'above', 'according to', 'across', 'after', 'against', 'along', 'among', 'around', 'at', 'before', 'beside', 'between', 'beyond', 'by', 'despite', 'during', 'from', 'inside', 'into', 'near', 'of', 'on', 'outside', 'over', 'past', 'since', 'through', 'toward', 'under', 'upon', 'without'],
};
const pick = (kind, seed) => `${JSON.stringify(vocabulary[kind]).replaceAll('"', "'")}[(hash(i, ${seed}) % ${vocabulary[kind].length})::BIGINT + 1]`;
const sentence = ['adjective', 'noun', 'verb', 'adverb', 'preposition', 'adjective', 'noun', 'verb', 'adverb']
  .map((kind, k) => pick(kind, 20 + k)).join(` || ' ' || `);
const lineitemText = lineitem.replace(/substr\(md5[^\n]*AS l_comment/, `substr(${sentence}, 1, (10 + hash(i, 14) % 34)::BIGINT) AS l_comment`);
if (lineitemText === lineitem) throw new Error('generate.mjs: the text lineitem no longer replaces the comment column');

const wide = `SELECT ${Array.from({ length: 200 }, (_, c) =>
  c % 2 ? `(hash(i, ${c}) % 1000000)::BIGINT AS c${c}` : `(hash(i, ${c}) % 1000000) / 7.0 AS c${c}`).join(', ')}
  FROM range(${Math.floor(rows / 20)}) t(i)`;

const narrow = `SELECT i::BIGINT AS id, (hash(i) % 1000000)::INTEGER AS v FROM range(${rows * 4}) t(i)`;

export const files = [
  { name: 'lineitem_snappy.parquet', query: lineitem, codec: 'snappy' },
  { name: 'lineitem_zstd.parquet', query: lineitem, codec: 'zstd' },
  { name: 'lineitem_none.parquet', query: lineitem, codec: 'uncompressed' },
  // An input of write_compare.mjs alone: read_compare.mjs leaves it out
  // unless PARQ_BENCH_FILES names it.
  { name: 'lineitem_text_none.parquet', query: lineitemText, codec: 'uncompressed', writeInput: true },
  { name: 'wide_snappy.parquet', query: wide, codec: 'snappy' },
  { name: 'narrow_snappy.parquet', query: narrow, codec: 'snappy' },
  // Rewritten by a peer (`writer`) from `source`, a file listed above it.
  { name: 'lineitem_polars_snappy.parquet', writer: 'polars', source: 'lineitem_snappy.parquet', codec: 'snappy' },
  { name: 'lineitem_polars_zstd.parquet', writer: 'polars', source: 'lineitem_snappy.parquet', codec: 'zstd' },
  { name: 'lineitem_arrowrs_snappy.parquet', writer: 'arrowrs', source: 'lineitem_snappy.parquet', codec: 'snappy' },
];

// The files whose names contain one of the comma-separated words of `filter`
// (all files if it is empty or absent), e.g. "polars,arrowrs".
export function selectFiles(filter) {
  const words = (filter ?? '').split(',').map((w) => w.trim()).filter((w) => w);
  return words.length ? files.filter((f) => words.some((w) => f.name.includes(w))) : files.filter((f) => !f.writeInput);
}

// Drops a file from the page cache and reads it through once, so that every
// engine meets it as a first read from storage leaves it. A file just
// written stays cached the way its writes cached it (in small folios here),
// which costs a reader that maps the file several times the page-table
// work of a file read in (in huge folios): without this step a timing
// would depend on the file's history. A page not yet written back cannot be
// dropped (the drop only starts its writeback), so a file generated moments
// before is flushed first.
export function settle(path) {
  const fd = openSync(path, 'r');
  const buffer = Buffer.allocUnsafe(8 << 20);
  try {
    fsyncSync(fd);
    execFileSync('dd', [`if=${path}`, 'iflag=nocache', 'count=0', 'status=none']);
    while (readSync(fd, buffer, 0, buffer.length, null) > 0);
  } finally {
    closeSync(fd);
  }
}

// Writes the files of `wanted` (all by default) that are missing, and the
// sources they are rewritten from.
export async function generate(wanted = files) {
  mkdirSync(dataDir, { recursive: true });
  const needed = new Set(wanted.map((f) => f.name));
  for (const f of [...files].reverse()) if (needed.has(f.name) && f.source) needed.add(f.source);
  let db, con;
  for (const f of files) {
    const path = dataDir + f.name;
    if (!needed.has(f.name) || existsSync(path)) continue;
    process.stderr.write(`generating ${f.name}\n`);
    if (f.writer) {
      const script = new URL('./peer_generate.mjs', import.meta.url).pathname;
      execFileSync(process.execPath, [script, f.writer, dataDir + f.source, f.codec, path], { stdio: 'inherit' });
      continue;
    }
    if (!con) {
      db = await DuckDBInstance.create(':memory:');
      con = await db.connect();
    }
    await con.run(`COPY (${f.query}) TO '${path}' (FORMAT parquet, COMPRESSION ${f.codec})`);
  }
}

// PARQ_BENCH_FILES (words of file names, comma-separated) limits what is made.
if (import.meta.url === `file://${process.argv[1]}`) await generate(selectFiles(process.env.PARQ_BENCH_FILES));

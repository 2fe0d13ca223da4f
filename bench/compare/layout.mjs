// Prints the layout of Parquet files, from `parq meta --json` and
// `parq pages --json`: writer, codecs, row groups and their row counts, and
// the data pages per column chunk (fewest, median, most; the column with the
// most), as one Markdown table.
//   node layout.mjs [--parq path/to/parq] FILE...
import { execFileSync } from 'node:child_process';
import { basename } from 'node:path';

const args = process.argv.slice(2);
let parq = new URL('../../build/parq', import.meta.url).pathname;
if (args[0] === '--parq') [, parq] = args.splice(0, 2);

const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const json = (cmd, file) => JSON.parse(execFileSync(parq, [cmd, file, '--json'], { maxBuffer: 1 << 30 }));
// Distinct values with their counts, in order of first appearance: "1048576 x5, 757120".
const runs = (xs) => {
  const counts = new Map();
  for (const x of xs) counts.set(x, (counts.get(x) ?? 0) + 1);
  return [...counts].map(([x, n]) => (n > 1 ? `${x} x${n}` : `${x}`)).join(', ');
};

console.log('| file | created by | codec | rows | row groups | rows per group | data pages per chunk (min / median / max) | most pages |');
console.log('|---|---|---|---|---|---|---|---|');
for (const file of args) {
  const meta = json('meta', file);
  const chunks = json('pages', file);
  const pages = chunks.map((c) => ({ column: c.column, n: c.pages.filter((p) => p.type !== 'DICTIONARY_PAGE').length }));
  const most = pages.reduce((a, b) => (b.n > a.n ? b : a));
  const codecs = [...new Set(chunks.map((c) => c.codec))].join(', ');
  const ns = pages.map((p) => p.n);
  console.log(`| ${basename(file)} | ${meta.created_by} | ${codecs} | ${meta.num_rows} | ${meta.num_row_groups} | ` +
    `${runs(meta.row_groups.map((g) => g.num_rows))} | ${Math.min(...ns)} / ${median(ns)} / ${Math.max(...ns)} | ` +
    `${most.column} (${most.n}) |`);
}

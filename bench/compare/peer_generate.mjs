// Rewrites a Parquet file with another writer, each with its own default
// layout apart from the codec; run in its own process by generate.mjs, so that
// the peer's memory (Polars' table, parquet-wasm's WebAssembly heap) is given
// back once the file is written.
//   node peer_generate.mjs polars|arrowrs INPUT CODEC OUT
// - polars: nodejs-polars reads INPUT whole and writes it with writeParquet
//   (statistics on, 1 MiB data pages; row groups follow the table's chunks:
//   from DuckDB's lineitem, 368,640 rows, three of its row groups).
// - arrowrs: parquet-wasm (arrow-rs built for WebAssembly) reads INPUT as a
//   stream of record batches and writes them with its default writer
//   properties (row groups of 1 Mi rows, data pages closed at 20,000 rows or
//   1 MiB, checked between write batches, dictionaries, page statistics and
//   page index) except the codec. The stream holds at most one row group of
//   encoded pages in the 4 GiB WebAssembly heap, whatever the file's size.
// Writes OUT.tmp, then renames it to OUT: an interrupted run leaves no OUT.
import { openAsBlob } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import { Writable } from 'node:stream';

const [engine, input, codec, out] = process.argv.slice(2);
const tmp = `${out}.tmp`;
await rm(tmp, { force: true });

if (engine === 'polars') {
  const { default: pl } = await import('nodejs-polars');
  pl.readParquet(input).writeParquet(tmp, { compression: codec });
} else if (engine === 'arrowrs') {
  const wasm = await import('parquet-wasm');
  const compression = wasm.Compression[codec.toUpperCase()];
  if (compression === undefined) throw new Error(`unknown codec ${codec}`);
  const props = new wasm.WriterPropertiesBuilder().setCompression(compression).build();
  const file = await wasm.ParquetFile.fromFile(await openAsBlob(input));
  // Batches of 64 Ki rows, a multiple of the writer's 1024-row write batch;
  // the reader also ends a batch at each of the input's row groups (122,880
  // rows from DuckDB), and the writer closes a page only between write
  // batches, so some pages hold 25,536 or 37,344 rows instead of 20,000.
  const batches = await file.stream({ batchSize: 65536 });
  const bytes = await wasm.transformParquetStream(batches, props);
  const handle = await open(tmp, 'w');
  await bytes.pipeTo(Writable.toWeb(handle.createWriteStream()));
} else {
  throw new Error(`unknown engine ${engine}`);
}
await rename(tmp, out);

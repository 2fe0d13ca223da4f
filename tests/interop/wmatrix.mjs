// Writer direction: the cells of the matrix, each one `parq rewrite SRC OUT ARGS`.
// A covering design rather than the full product:
//   A. every codec x page version 1/2 x dictionary on/off/fallback (48 cells)
//   B. every non-default encoding on every leaf that takes it x page version 1/2
//      x dictionary off/on for the other leaves (codecs rotate)
//   C. bloom filters (DuckDB's parquet_bloom_probe checks them)
//   D. odd sizes and switches: tiny pages, many row groups, byte-sized row
//      groups, threads, codec levels, statistics/page index/checksums off,
//      pages stored uncompressed, checkpoints.
// Every cell uses row groups of 600 rows and 4 KiB pages unless it says otherwise,
// so that each column chunk has many pages.

export const CODECS = ['uncompressed', 'snappy', 'gzip', 'brotli', 'zstd', 'lz4', 'lz4_raw', 'lzo'];
// a dictionary page limit that every high-cardinality column outgrows in its first pages
export const FALLBACK_BYTES = 1024;
export const BLOOM_COLUMNS = ['i32', 'i64', 'u32', 'u64', 'f32', 'f64', 'dec_9_2', 'dec_18_6', 'dec_38_10', 's', 'bin', 'd',
  'ts_ms', 'ts_us', 'ts_ns_utc', 't_ms', 't_us', 'f16', 's_cat', 'k', 'e', 'j', 'fx', 'uuid', 'req_i32', 'req_s', 'l_s.list.element',
  'st.a', 'm.key_value.key', 'nested.list.element.vals.list.element'];

// default encoding of a leaf that is not dictionary-encoded (what parq documents)
export function defaultEncoding(physical, pv) {
  if (pv === 1) return 'PLAIN';
  return { INT32: 'DELTA_BINARY_PACKED', INT64: 'DELTA_BINARY_PACKED', BYTE_ARRAY: 'DELTA_BYTE_ARRAY',
    FIXED_LEN_BYTE_ARRAY: 'DELTA_BYTE_ARRAY', BOOLEAN: 'RLE' }[physical] ?? 'PLAIN';
}

// the `parq rewrite` options of a cell; `paths` (optional) keeps only the
// encodings and bloom filters of the leaves a file has
export function cellArgs(c, paths) {
  const args = ['--codec', c.codec, '--page-version', String(c.pv), '--dictionary', c.dict === 'off' ? 'off' : 'on',
    ...(c.dict === 'fallback' ? ['--dictionary-bytes', String(FALLBACK_BYTES)] : []),
    '--row-group-rows', String(c.rowGroupRows ?? 600), '--page-bytes', String(c.pageBytes ?? 4096)];
  for (const [path, enc] of Object.entries(c.enc)) if (!paths || paths.has(path)) args.push('--encoding', `${path}=${enc.toLowerCase()}`);
  for (const col of c.bloom) if (!paths || paths.has(col)) args.push('--bloom-filter', col);
  args.push(...(c.extra ?? []));
  return args;
}

export function buildCells(leaves) {
  const cells = [];
  const add = (c) => {
    const dict = c.dict ?? 'on';
    const name = c.name ?? `${c.codec.replace(':', '')}-v${c.pv}-dict_${dict}${c.encName ? '-' + c.encName : ''}`;
    const cell = { ...c, dict, name, enc: c.enc ?? {}, bloom: c.bloom ?? [], stats: !(c.extra ?? []).includes('--stats') };
    cell.args = cellArgs(cell);
    cells.push(cell);
  };
  // A
  for (const codec of CODECS) for (const pv of [1, 2]) for (const dict of ['on', 'off', 'fallback']) add({ codec, pv, dict });
  // B
  const on = (pred, enc) => Object.fromEntries(leaves.filter(pred).map((l) => [l.path, enc]));
  const phys = (...ps) => (l) => ps.includes(l.physical);
  const encSets = {
    plain: on(() => true, 'PLAIN'),
    dbp: on(phys('INT32', 'INT64'), 'DELTA_BINARY_PACKED'),
    dlba: on(phys('BYTE_ARRAY'), 'DELTA_LENGTH_BYTE_ARRAY'),
    dba: on(phys('BYTE_ARRAY', 'FIXED_LEN_BYTE_ARRAY'), 'DELTA_BYTE_ARRAY'),
    bss_float: on((l) => l.physical === 'FLOAT' || l.physical === 'DOUBLE' || l.kind === 'float16', 'BYTE_STREAM_SPLIT'),
    bss_int: on(phys('INT32', 'INT64'), 'BYTE_STREAM_SPLIT'),
    bss_flba: on((l) => l.physical === 'FIXED_LEN_BYTE_ARRAY' && l.kind !== 'float16', 'BYTE_STREAM_SPLIT'),
    rle_bool: on(phys('BOOLEAN'), 'RLE'),
    mixed: Object.fromEntries(leaves.map((l) => [l.path, l.physical === 'BOOLEAN' ? 'RLE'
      : l.physical === 'INT32' || l.physical === 'INT64' ? 'DELTA_BINARY_PACKED'
        : l.physical === 'FLOAT' || l.physical === 'DOUBLE' || l.kind === 'float16' ? 'BYTE_STREAM_SPLIT'
          : l.physical === 'BYTE_ARRAY' ? (l.kind === 'string' ? 'DELTA_BYTE_ARRAY' : 'DELTA_LENGTH_BYTE_ARRAY')
            : 'DELTA_BYTE_ARRAY'])),
  };
  let k = 0;
  for (const [encName, enc] of Object.entries(encSets)) for (const pv of [1, 2]) for (const dict of ['off', 'on']) {
    add({ codec: CODECS[k++ % CODECS.length], pv, dict, enc, encName });
  }
  // C
  add({ name: 'bloom-snappy-v1-dict_on', codec: 'snappy', pv: 1, dict: 'on', bloom: BLOOM_COLUMNS });
  add({ name: 'bloom-zstd-v2-dict_off-fpp0.001', codec: 'zstd', pv: 2, dict: 'off', bloom: BLOOM_COLUMNS, extra: ['--bloom-fpp', '0.001'] });
  add({ name: 'bloom-gzip-v1-dict_fallback-bss', codec: 'gzip', pv: 1, dict: 'fallback', bloom: BLOOM_COLUMNS,
    enc: { f64: 'BYTE_STREAM_SPLIT', i64: 'DELTA_BINARY_PACKED', s: 'DELTA_LENGTH_BYTE_ARRAY' } });
  // D
  add({ name: 'tiny-pages-snappy-v2', codec: 'snappy', pv: 2, dict: 'fallback', pageBytes: 1 << 20, extra: ['--page-rows', '7'] });
  add({ name: 'tiny-pages-zstd-v1-bytes', codec: 'zstd', pv: 1, dict: 'on', pageBytes: 200 });
  add({ name: 'dict-entries16-snappy-v2', codec: 'snappy', pv: 2, dict: 'fallback', extra: ['--dictionary-entries', '16'] });
  // checkpointed files (a cumulative footer after every row group, or every
  // third), with page indexes and bloom filters before each checkpoint
  add({ name: 'checkpoint1-zstd-v1-bloom', codec: 'zstd', pv: 1, dict: 'on', bloom: BLOOM_COLUMNS, extra: ['--checkpoint', '1'] });
  add({ name: 'checkpoint3-snappy-v2', codec: 'snappy', pv: 2, dict: 'fallback', extra: ['--checkpoint', '3'] });
  add({ name: 'rowgroups97-zstd9-v1', codec: 'zstd:9', pv: 1, dict: 'on', rowGroupRows: 97 });
  add({ name: 'rowgroup-bytes-lz4_raw-v2-threads', codec: 'lz4_raw', pv: 2, dict: 'fallback', rowGroupRows: 1 << 20,
    extra: ['--row-group-bytes', '40000', '--threads', '2'] });
  add({ name: 'single-rowgroup-gzip9-v2', codec: 'gzip:9', pv: 2, dict: 'off', rowGroupRows: 1 << 20, pageBytes: 1 << 20, extra: ['--page-rows', '0'] });
  // --min-saving 1: no page passes, so after each chunk's first page every
  // page is stored (literal streams in v1, is_compressed=false in v2)
  for (const [codec, pv] of [['snappy', 1], ['lz4', 1], ['lz4_raw', 1], ['zstd', 2], ['gzip', 2], ['snappy', 2]])
    add({ name: `stored-pages-${codec}-v${pv}`, codec, pv, dict: 'fallback', extra: ['--min-saving', '1'] });
  add({ name: 'brotli5-v1-no-stats-index-crc', codec: 'brotli:5', pv: 1, dict: 'on', extra: ['--stats', 'off', '--page-index', 'off', '--crc', 'off'] });
  return cells;
}

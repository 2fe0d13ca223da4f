// The selective queries of query_compare.mjs, each written for parq
// (--where), DuckDB (SQL) and Polars (a lazy filter expression), over the
// lineitem table of generate.mjs (l_orderkey 1..1.5 M, four lines each).
export const queries = [
  {
    name: 'a_point',
    what: 'point lookup on the sort key',
    parq: 'l_orderkey = 750001',
    sql: 'l_orderkey = 750001',
    polars: (pl) => pl.col('l_orderkey').eq(750001),
  },
  {
    name: 'b_range',
    what: '0.1% range of the sort key',
    parq: 'l_orderkey BETWEEN 500000 AND 501499',
    sql: 'l_orderkey BETWEEN 500000 AND 501499',
    polars: (pl) => pl.col('l_orderkey').gtEq(500000).and(pl.col('l_orderkey').ltEq(501499)),
  },
  {
    name: 'c_unsorted_1pct',
    what: '1% of rows by an unsorted column, all 16 columns',
    parq: 'l_partkey <= 2000',
    sql: 'l_partkey <= 2000',
    polars: (pl) => pl.col('l_partkey').ltEq(2000),
  },
  {
    name: 'd_bloom_absent',
    what: 'equality on a bloom-filtered string, value absent',
    parq: "l_comment = 'no such comment here'",
    sql: "l_comment = 'no such comment here'",
    polars: (pl) => pl.col('l_comment').eq(pl.lit('no such comment here')),
  },
  {
    name: 'e_keeps_90pct',
    what: 'a predicate keeping 90% of rows',
    parq: 'l_quantity <= 45',
    sql: 'l_quantity <= 45',
    polars: (pl) => pl.col('l_quantity').cast(pl.Float64).ltEq(45),
  },
];

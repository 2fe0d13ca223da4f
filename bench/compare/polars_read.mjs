// Times Polars reading a Parquet file into memory; run in its own process so
// that POLARS_MAX_THREADS takes effect. Prints the run times as JSON.
import pl from 'nodejs-polars';

const [path, repeat] = process.argv.slice(2);
const seconds = [];
for (let k = 0; k < Number(repeat); ++k) {
  const start = process.hrtime.bigint();
  const df = pl.readParquet(path);
  if (df.height < 0) throw new Error('unreachable');
  seconds.push(Number(process.hrtime.bigint() - start) / 1e9);
}
console.log(JSON.stringify(seconds));

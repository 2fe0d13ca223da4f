// DuckDB's values (from @duckdb/node-api) in the canonical form of
// ../../../shared/golden/FORMAT.md, for the interop and differential tests.
// It imports no engine: each test loads DuckDB from its own node_modules
// and hands this module a connection or values.
import { fmtDate, fmtTimestamp, fmtTime, fmtDecimal, b64, fmtFloat, fmtInt, convertUnit } from './canonical.mjs';

export const sqlPath = (s) => `'${s.replace(/'/g, "''")}'`;

// Parquet leaf name -> {unit, utc} for TIMESTAMP / TIME leaves (DuckDB's own metadata).
export async function duckTimeHints(c, file) {
  const r = await c.runAndReadAll(`SELECT name, type, converted_type, logical_type FROM parquet_schema(${sqlPath(file)})`);
  const hints = {};
  for (const [name, type, ct, lt] of r.getRows()) {
    const s = `${ct ?? ''} ${lt ?? ''}`;
    if (/TIMESTAMP|Timestamp|TIME|Time/.test(s) || type === 'INT96') {
      const l = lt ?? '';
      const unit = /NANOS=NanoSeconds/.test(l) ? 'ns' : /MICROS=MicroSeconds/.test(l) ? 'us' : /MILLIS=MilliSeconds/.test(l) ? 'ms'
        : type === 'INT96' ? 'ns' : /MILLIS/.test(ct ?? '') ? 'ms' : 'us';
      const utc = type === 'INT96' ? false : l ? /isAdjustedToUTC=(1|true)/i.test(l) : /^TIMESTAMP_/.test(ct ?? '');
      hints[name] = { unit, utc };
    }
  }
  return hints;
}

export function duckValue(v, hint) {
  if (v === null || v === undefined) return null;
  switch (typeof v) {
    case 'boolean': case 'string': return v;
    case 'number': return Number.isInteger(v) && !Object.is(v, -0) ? v : fmtFloat(v);
    case 'bigint': return fmtInt(v);
  }
  const cls = v.constructor.name;
  switch (cls) {
    case 'DuckDBDecimalValue': return fmtDecimal(v.value, v.scale);
    case 'DuckDBBlobValue': return b64(v.bytes);
    case 'DuckDBDateValue': return fmtDate(v.days);
    case 'DuckDBTimestampValue': case 'DuckDBTimestampTZValue':
      return fmtTimestamp(convertUnit(v.micros, 'us', hint.unit), hint.unit, hint.utc);
    case 'DuckDBTimestampMillisecondsValue': return fmtTimestamp(convertUnit(v.millis, 'ms', hint.unit), hint.unit, hint.utc);
    case 'DuckDBTimestampNanosecondsValue': return fmtTimestamp(convertUnit(v.nanos, 'ns', hint.unit), hint.unit, hint.utc);
    case 'DuckDBTimeValue': return fmtTime(convertUnit(v.micros, 'us', hint.unit), hint.unit);
    case 'DuckDBTimeNSValue': return fmtTime(convertUnit(v.nanos, 'ns', hint.unit), hint.unit);
    case 'DuckDBListValue': case 'DuckDBArrayValue': return v.items.map((x) => duckValue(x, hint));
    case 'DuckDBStructValue': {
      const o = {};
      for (const [k, x] of Object.entries(v.entries)) o[k] = duckValue(x, hint?.[k] ?? hint);
      return o;
    }
    case 'DuckDBMapValue': return v.entries.map(({ key, value }) => ({ key: duckValue(key, hint), value: duckValue(value, hint) }));
    case 'DuckDBUUIDValue': return v.toString();
    case 'DuckDBIntervalValue': return { months: v.months, days: v.days, millis: fmtInt(BigInt(v.micros) / 1000n) };
    default: throw new Error('DuckDB value class not handled: ' + cls);
  }
}


// LZO1X decompression in JavaScript (after minilzo's lzo1x_decompress), so that
// hyparquet can read LZO pages: no peer engine reads LZO, and this keeps parq's
// LZO output checked by a decoder that is not liblzo2. Parquet's LZO pages use
// Hadoop's block stream: [u32 BE raw size] then [u32 BE packed size][LZO1X data]
// chunks until the block is complete; a bare LZO1X stream is accepted too.

function fail(m) { throw new Error('LZO: ' + m); }

// Decompresses one LZO1X stream from src into dst at `out`; returns the new output position.
export function lzo1xDecompress(src, dst, out = 0) {
  let ip = 0, op = out, t = 0, mPos = 0;
  const lit = (n) => {
    if (ip + n > src.length) fail('input overrun');
    if (op + n > dst.length) fail('output overrun');
    for (let k = 0; k < n; k++) dst[op++] = src[ip++];
  };
  const copyMatch = (n) => {
    if (mPos < out) fail('lookbehind overrun');
    if (op + n > dst.length) fail('output overrun');
    for (let k = 0; k < n; k++) dst[op++] = dst[mPos++];
  };
  const ext = (base) => { // a length continued in zero bytes
    let n = 0;
    while (src[ip] === 0) { n += 255; ip++; if (ip >= src.length) fail('input overrun'); }
    return n + base + src[ip++];
  };
  // states: 0 = literal run, 1 = first literal run, 2 = match, 3 = match next
  let state = 0;
  if (src[0] > 17) {
    t = src[ip++] - 17;
    if (t < 4) state = 3;
    else { lit(t); state = 1; }
  }
  for (;;) {
    if (state === 0) {
      t = src[ip++];
      if (t === undefined) fail('input overrun');
      if (t >= 16) { state = 2; continue; }
      if (t === 0) t = ext(15);
      lit(t + 3);
      state = 1;
    }
    if (state === 1) {
      t = src[ip++];
      if (t >= 16) { state = 2; continue; }
      mPos = op - (1 + 0x0800) - (t >> 2) - (src[ip++] << 2);
      copyMatch(3);
    } else if (state === 2) {
      if (t >= 64) {
        mPos = op - 1 - ((t >> 2) & 7) - (src[ip++] << 3);
        copyMatch((t >> 5) + 1);
      } else if (t >= 32) {
        t &= 31;
        if (t === 0) t = ext(31);
        mPos = op - 1 - ((src[ip] | (src[ip + 1] << 8)) >> 2);
        ip += 2;
        copyMatch(t + 2);
      } else if (t >= 16) {
        mPos = op - ((t & 8) << 11);
        t &= 7;
        if (t === 0) t = ext(7);
        mPos -= (src[ip] | (src[ip + 1] << 8)) >> 2;
        ip += 2;
        if (mPos === op) { // end of stream
          if (t !== 1) fail('bad end marker');
          return op;
        }
        mPos -= 0x4000;
        copyMatch(t + 2);
      } else {
        mPos = op - 1 - (t >> 2) - (src[ip++] << 2);
        copyMatch(2);
      }
    }
    if (state !== 3) {
      // match done: the low two bits of the instruction's offset byte count trailing literals
      t = src[ip - 2] & 3;
      if (t === 0) { state = 0; continue; }
    }
    lit(t); // match next
    t = src[ip++];
    state = 2;
  }
}

const be32 = (b, i) => ((b[i] << 24) | (b[i + 1] << 16) | (b[i + 2] << 8) | b[i + 3]) >>> 0;

// hyparquet compressor signature: (input, outputLength) -> Uint8Array
export function decompressLzo(input, outputLength) {
  const out = new Uint8Array(outputLength);
  try {
    let ip = 0, op = 0;
    while (ip < input.length) {
      if (input.length - ip < 4) fail('truncated block header');
      const block = be32(input, ip); ip += 4;
      const end = op + block;
      if (end > outputLength) fail('block larger than the page');
      while (op < end) {
        if (input.length - ip < 4) fail('truncated chunk header');
        const packed = be32(input, ip); ip += 4;
        if (packed > input.length - ip) fail('chunk past the input');
        const produced = lzo1xDecompress(input.subarray(ip, ip + packed), out.subarray(0, end), op) - op;
        if (produced <= 0) fail('empty chunk');
        ip += packed; op += produced;
      }
    }
    if (op !== outputLength) fail(`produced ${op} bytes, expected ${outputLength}`);
    return out;
  } catch (e) {
    // not the Hadoop layout: a bare LZO1X stream
    const n = lzo1xDecompress(input, out, 0);
    if (n !== outputLength) throw new Error(`LZO: produced ${n} bytes, expected ${outputLength} (hadoop layout: ${e.message})`);
    return out;
  }
}

// A share of a test's cases, named by an environment variable as K/N: the
// cases whose index i has i % N == K. scripts/test.sh runs a share of the
// heavy peer matrices in CI and turns K from commit to commit; unset (or
// 0/1), every case runs.
//   share.keeps(i): whether case i is in the share;
//   share.note(what): a line naming the share (null when every case runs).
export function shareOf(variable) {
  const text = process.env[variable];
  let k = 0, n = 1;
  if (text !== undefined && text !== '') {
    const m = /^(\d+)\/(\d+)$/.exec(text);
    if (!m || Number(m[2]) < 1 || Number(m[1]) >= Number(m[2])) {
      console.error(`${variable}=${text}: expected K/N with 0 <= K < N`);
      process.exit(2);
    }
    [k, n] = [Number(m[1]), Number(m[2])];
  }
  return {
    keeps: (i) => i % n === k,
    note: (what) => (n > 1 ? `${what} i with i % ${n} == ${k} (${variable}=${k}/${n}; 0/1 runs all)` : null),
  };
}

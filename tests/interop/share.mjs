// A share of a test's cases, named by an environment variable as K/N: the
// cases whose index i has i % N == K. scripts/test.sh runs a share of the
// heavy peer matrices in CI and turns K from commit to commit; unset (or
// 0/1), every case runs.
export function shareOf(variable) {
  const text = process.env[variable];
  if (text === undefined || text === '') return { k: 0, n: 1 };
  const m = /^(\d+)\/(\d+)$/.exec(text);
  if (!m || Number(m[2]) < 1 || Number(m[1]) >= Number(m[2])) {
    console.error(`${variable}=${text}: expected K/N with 0 <= K < N`);
    process.exit(2);
  }
  return { k: Number(m[1]), n: Number(m[2]) };
}

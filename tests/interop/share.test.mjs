// node --test: shareOf keeps the cases a K/N share names and refuses
// anything else (ctest runs it as interop_share).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { shareOf } from './share.mjs';

const shareModule = new URL('./share.mjs', import.meta.url).href;

function kept(text, count) {
  if (text === undefined) delete process.env.TEST_SHARE; else process.env.TEST_SHARE = text;
  const share = shareOf('TEST_SHARE');
  return [...Array(count).keys()].filter(share.keeps);
}

test('unset, empty or 0/1 keeps every case and names no share', () => {
  for (const text of [undefined, '', '0/1']) {
    assert.deepEqual(kept(text, 5), [0, 1, 2, 3, 4]);
    assert.equal(shareOf('TEST_SHARE').note('cases'), null);
  }
});

test('the shares of one N are disjoint and together keep every case', () => {
  assert.deepEqual(kept('0/2', 7), [0, 2, 4, 6]);
  assert.deepEqual(kept('1/2', 7), [1, 3, 5]);
  const thirds = [0, 1, 2].flatMap((k) => kept(`${k}/3`, 10));
  assert.deepEqual(thirds.sort((a, b) => a - b), [...Array(10).keys()]);
  process.env.TEST_SHARE = '1/2';
  assert.equal(shareOf('TEST_SHARE').note('cells'), 'cells i with i % 2 == 1 (TEST_SHARE=1/2; 0/1 runs all)');
});

test('a share that is not K/N with 0 <= K < N ends the process with exit 2', () => {
  for (const text of ['2/2', '1/0', '1', 'a/2', '-1/2', '1/2/3']) {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e',
      `import { shareOf } from '${shareModule}'; shareOf('TEST_SHARE'); console.log('accepted');`],
    { env: { ...process.env, TEST_SHARE: text }, encoding: 'utf8' });
    assert.equal(r.status, 2, `${text}: exit ${r.status}, stdout ${r.stdout}`);
    assert.match(r.stderr, new RegExp(`TEST_SHARE=${text.replace(/[/]/g, '\\/')}: expected K/N with 0 <= K < N`));
  }
});

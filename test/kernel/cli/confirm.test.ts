import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { confirm } from '../../../kernel/cli/confirm.ts';
import { fakeIo } from './fake-io.ts';

describe('confirm', () => {
  it('without a terminal and without --yes: refuses, asks nothing, and says to pass --yes', async () => {
    const io = fakeIo({ interactive: false, answers: ['y'] });
    assert.equal(await confirm(io, 'Replace the live files?', { yes: false }), false);
    assert.deepEqual(io.asked, []);
    assert.match(io.stderr, /Replace the live files\?/);
    assert.match(io.stderr, /pass --yes/);
  });

  it('--yes proceeds without asking, with or without a terminal', async () => {
    for (const interactive of [false, true]) {
      const io = fakeIo({ interactive });
      assert.equal(await confirm(io, 'Go?', { yes: true }), true);
      assert.deepEqual(io.asked, []);
    }
  });

  it('on a terminal asks y/N: only y or yes (any case) agree; empty, n or anything else declines', async () => {
    for (const [answer, expected] of [
      ['y', true],
      ['YES', true],
      [' yes ', true],
      ['', false],
      ['n', false],
      ['yep', false],
    ] as const) {
      const io = fakeIo({ interactive: true, answers: [answer] });
      assert.equal(await confirm(io, 'Go?', { yes: false }), expected, JSON.stringify(answer));
      assert.deepEqual(io.asked, ['Go? [y/N] ']);
    }
  });
});

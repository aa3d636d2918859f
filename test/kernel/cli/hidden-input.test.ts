// The no-echo reader against a fake terminal: what is typed never reaches the output, editing keys
// edit, and the terminal's mode is put back however the line ends.
import assert from 'node:assert/strict';
import { PassThrough } from 'node:stream';
import { describe, it } from 'node:test';
import { readHiddenLine } from '../../../kernel/cli/hidden-input.ts';

function fakeTty(o: { raw?: boolean; rawFails?: boolean } = {}) {
  const input = Object.assign(new PassThrough(), {
    isTTY: true,
    isRaw: o.raw ?? false,
    modes: [] as boolean[],
    setRawMode(mode: boolean) {
      if (o.rawFails) throw new Error('not a terminal');
      input.modes.push(mode);
      input.isRaw = mode;
      return input;
    },
  });
  let shown = '';
  const output = { write: (t: string) => void (shown += t) };
  return { input, output, shown: () => shown };
}

describe('readHiddenLine (no-echo password prompt)', () => {
  it('reads a line in raw mode, echoing only the prompt and a newline', async () => {
    const t = fakeTty();
    const answer = readHiddenLine(t.input, t.output, 'Password: ');
    t.input.write('s3cr');
    t.input.write(Buffer.from('ét!\r'));
    assert.equal(await answer, 's3crét!');
    assert.equal(t.shown(), 'Password: \n');
    assert.deepEqual(t.input.modes, [true, false]);
    assert.equal(t.input.listenerCount('data'), 0);
    assert.equal(t.input.isPaused(), true);
  });

  it('edits with backspace and Ctrl-U, and ignores arrow keys', async () => {
    const t = fakeTty();
    const answer = readHiddenLine(t.input, t.output, '? ');
    t.input.write('wrong\u0015abX\u007fc\u001b[D\u001b[3~d\bd\n');
    assert.equal(await answer, 'abcd');
  });

  it('gives up on Ctrl-C, on Ctrl-D at the start, and at the end of the input; the mode is restored', async () => {
    for (const [typed, end] of [
      ['abc\u0003', false],
      ['\u0004', false],
      ['abc', true],
    ] as const) {
      const t = fakeTty({ raw: false });
      const answer = readHiddenLine(t.input, t.output, '? ');
      t.input.write(typed);
      if (end) t.input.end();
      assert.equal(await answer, '', JSON.stringify(typed));
      assert.deepEqual(t.input.modes, [true, false]);
    }
  });

  it('puts back a terminal that was already raw, and reads nothing where raw mode is impossible', async () => {
    const raw = fakeTty({ raw: true });
    const answer = readHiddenLine(raw.input, raw.output, '? ');
    raw.input.write('x\r');
    assert.equal(await answer, 'x');
    assert.deepEqual(raw.input.modes, [true, true]);

    const broken = fakeTty({ rawFails: true });
    assert.equal(await readHiddenLine(broken.input, broken.output, '? '), '');
    assert.equal(broken.input.listenerCount('data'), 0);
  });
});

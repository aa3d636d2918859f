// Reading a VOS CLI screen: the real pagers and questions, as Cisco's own automation (unicon's VOS
// plugin) matches them.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { cleanOutput, screenEnd } from '../../../../plugins/_shared/vos/cli-output.ts';

const PAGER = '\x1b[1mPress <enter> for 1 line, <space> for one page, or <q> to quit\x1b[0m\x1b[K';
const options = (a: number, b: number, c: number): string =>
  `\x1b[1m\r\noptions: q=quit, n=next, p=prev, b=begin, e=end (lines ${a} - ${b} of ${c}) : \x1b[0m`;

describe('VOS CLI screen reading', () => {
  it('knows the automatic pager, the options pager, and both kinds of y/n question', () => {
    assert.equal(screenEnd(`line 1\r\nline 2\r\n${PAGER}`), 'more');
    assert.equal(screenEnd(`line\r\n${options(1, 20, 57)}`), 'options-next');
    assert.equal(screenEnd(`end of the file reached${options(41, 57, 57)}`), 'options-end');
    assert.equal(screenEnd('Continue (y/n)? '), 'confirm');
    assert.equal(screenEnd('Total size in Kbytes: 38.6\r\nWould you like to proceed [y/n]? '), 'confirm');
    assert.equal(screenEnd('output\r\nadmin:'), 'prompt');
    assert.equal(screenEnd('Press <enter> in the text, not at the end\r\n'), undefined);
  });

  it('removes both pagers from the output, keeping every line once', () => {
    const raw =
      'utils service list\r\nA[STARTED]\r\nB[STARTED]\r\n' +
      `${PAGER}\r\x1b[KC[STARTED]\r\n${PAGER}\r\x1b[KD[STARTED]\r\nadmin:`;
    assert.equal(cleanOutput(raw, 'utils service list'), 'A[STARTED]\nB[STARTED]\nC[STARTED]\nD[STARTED]');
    const viewed =
      'file view activelog x.log\r\nfirst\r\n' +
      `${options(1, 1, 2)}\r\nsecond\r\nend of the file reached\r\n${options(2, 2, 2)}\r\nadmin:`;
    assert.equal(cleanOutput(viewed, 'file view activelog x.log'), 'first\nsecond');
  });
});

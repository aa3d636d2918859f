import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { createProgress, progressCallback } from '../../../kernel/cli/progress.ts';
import { fakeIo } from './fake-io.ts';

describe('progress', () => {
  it('without a terminal: a plain line per 10% step on stderr, the last one from done(), nothing on stdout', () => {
    const io = fakeIo({ interactive: false });
    const p = createProgress(io, 'hashing', 100, () => 0);
    for (let i = 0; i < 100; i++) p.tick();
    p.done();
    p.done();
    const lines = io.stderr.trimEnd().split('\n');
    assert.equal(lines.length, 10, io.stderr);
    assert.equal(lines[0], 'hashing 10/100 (10%)');
    assert.equal(lines[8], 'hashing 90/100 (90%)');
    assert.equal(lines[9], 'hashing 100/100 (100%) done');
    assert.equal(io.stdout, '');
  });

  it('without a terminal and no total: a counter line every few seconds', () => {
    const io = fakeIo({ interactive: false });
    let now = 0;
    const p = createProgress(io, 'uploading', undefined, () => now);
    p.tick(5);
    assert.equal(io.stderr, '', 'not yet');
    now = 5_000;
    p.tick(3);
    now = 6_000;
    p.tick();
    p.done();
    assert.equal(io.stderr, 'uploading 8\nuploading 9 done\n');
  });

  it('on a terminal: one line redrawn in place as a bar, ended by a newline', () => {
    const io = fakeIo({ interactive: true });
    const p = createProgress(io, 'backup', 4);
    p.tick(2);
    assert.equal(io.stderr, `\r\x1b[Kbackup [${'#'.repeat(15)}${'-'.repeat(15)}] 50% (2/4)`);
    p.tick(2);
    p.done();
    assert.ok(io.stderr.endsWith(`\r\x1b[Kbackup [${'#'.repeat(30)}] 100% (4/4) done\n`), io.stderr);
    assert.equal(io.stderr.split('\n').length, 2, 'a single line');
  });

  it('progressCallback follows { done, total } reports and ends itself', () => {
    const io = fakeIo({ interactive: false });
    const cb = progressCallback(io, 'hashing');
    for (let done = 1; done <= 13; done++) cb({ done, total: 13 });
    assert.match(io.stderr, /hashing 13\/13 \(100%\) done\n$/);
    assert.equal(io.stderr.match(/done/g)?.length, 1);
  });
});

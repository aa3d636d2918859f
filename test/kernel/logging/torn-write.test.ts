// A log write the disk takes only part of (file-size limit or full disk: the kernel accepts the first
// bytes, then refuses) must not leave a fragment: the record is refused whole, the file keeps only whole
// lines, and the next record does not start glued to a torn one. Runs a writer under `ulimit -f`.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { tempStateDir } from '../../helpers/state-dir.ts';

const WRITER = join(import.meta.dirname, '../../helpers/limited-writer.ts');

describe('a write refused part-way', () => {
  const state = tempStateDir();
  after(() => state.cleanup());

  it('is cut back to the last whole line, and refused with AUDIT_UNAVAILABLE', () => {
    const path = join(state.dir, 'audit.log');
    // ulimit -f counts 1024-byte blocks: the log may not grow past 8 KiB.
    const out = execFileSync(
      '/bin/sh',
      ['-c', 'ulimit -f 8 && exec "$0" "$@"', process.execPath, '--import', 'tsx', WRITER, path],
      { encoding: 'utf8' },
    );
    const { acked, errors } = JSON.parse(out) as { acked: number; errors: string[] };
    assert.equal(errors.length, 2, 'the record that met the limit and the one after were both refused');
    for (const e of errors) assert.match(e, /^AUDIT_UNAVAILABLE: EFBIG/);
    const text = readFileSync(path, 'utf8');
    assert.ok(statSync(path).size <= 8192);
    assert.ok(text.endsWith('\n'), 'the file ends with a whole line');
    const seqs = text
      .split('\n')
      .filter(Boolean)
      .map((l) => (JSON.parse(l) as { seq: number }).seq);
    assert.equal(seqs.length, acked, 'every acknowledged record is there, and nothing else');
    assert.deepEqual(
      seqs,
      Array.from({ length: acked }, (_, i) => i + 1),
    );
    assert.ok(8192 - text.length > 0, 'the limit fell inside a record (the case under test)');
  });
});

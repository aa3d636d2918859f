import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { ReportStore } from '../../../plugins/common/reports/store.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

describe('report store', () => {
  const state = tempStateDir();
  after(() => state.cleanup());
  const roomy = { maxFiles: 1000, maxBytes: 1024 * 1024 * 1024 };
  const store = ReportStore.forClient(state.dir, 'alice', { reportMaxBytes: 10 * 1024 * 1024, ...roomy });

  it('refuses names that could leave the folder or hide', () => {
    for (const bad of [
      '../x.md',
      'a/b.md',
      '.hidden.md',
      'x.txt',
      'x.md/',
      '..md',
      `${'a'.repeat(130)}.md`,
      'a\u0000.md',
      '%2e%2e%2fx.md',
      'C:\\x.md',
    ]) {
      assert.throws(() => store.path(bad), /report names/, bad);
    }
    assert.ok(store.path('cucm-audit_2026.11.md').startsWith(store.dir));
  });

  it('a 5 MB report with multi-byte characters reads back in chunks that concatenate to the original', async () => {
    const unit = 'ligne é 🎉 — données\n';
    const text = unit.repeat(Math.ceil((5 * 1024 * 1024) / Buffer.byteLength(unit)));
    await store.update('big.md', () => text);
    let cursor: number | null = 0;
    const parts: string[] = [];
    while (cursor !== null) {
      const c = store.readChunk('big.md', cursor, 64 * 1024);
      assert.ok(Buffer.byteLength(c.text) <= 64 * 1024);
      parts.push(c.text);
      cursor = c.next;
    }
    assert.ok(parts.length > 70);
    assert.equal(parts.join(''), text);
  });

  it('refuses a report over the size limit and keeps the old content', async () => {
    const small = ReportStore.forClient(state.dir, 'bob', { reportMaxBytes: 1024, ...roomy });
    await small.update('r.md', () => 'keep');
    await assert.rejects(
      small.update('r.md', () => 'x'.repeat(2048)),
      /limit is 1024/,
    );
    assert.equal(await small.read('r.md'), 'keep');
  });
});

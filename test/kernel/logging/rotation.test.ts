import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { after, describe, it } from 'node:test';
import { AuditLog } from '../../../kernel/audit/audit-log.ts';
import { RotatingFile } from '../../../kernel/logging/rotating-file.ts';
import { startTestKernel } from '../../helpers/kernel.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

describe('size rotation', () => {
  const state = tempStateDir();
  after(() => state.cleanup());

  it('writing past the size limit produces gzip archives, never more than the configured count', async () => {
    const path = join(state.dir, 'app.log');
    const file = new RotatingFile({ path, maxBytes: 2048, maxFiles: 3 });
    const written: string[] = [];
    for (let i = 0; i < 400; i++) {
      const line = JSON.stringify({ i, msg: 'y'.repeat(40) });
      written.push(line);
      file.writeLine(line);
      if (i % 50 === 0) await file.flush();
    }
    await file.flush();
    const archives = file.archives();
    assert.equal(archives.length, 3, `exactly the 3 newest archives kept, got ${archives.length}`);
    assert.ok(statSync(path).size <= 2048);
    // Archives are real gzip, whole lines, in order, and with the live file form the tail of what was written.
    const kept = [
      ...archives.map((a) => gunzipSync(readFileSync(a)).toString('utf8')),
      readFileSync(path, 'utf8'),
    ]
      .join('')
      .split('\n')
      .filter(Boolean);
    assert.deepEqual(kept, written.slice(written.length - kept.length));
    assert.deepEqual(
      readdirSync(state.dir).filter((f) => !f.endsWith('.gz') && f !== 'app.log'),
      [],
      'no uncompressed or temporary leftovers',
    );
    await file.close();
  });

  it('a rotated file left uncompressed by a crash is compressed at the next open', async () => {
    const path = join(state.dir, 'audit.log');
    const first = new AuditLog({ path, maxBytes: 1024, maxFiles: 10 });
    for (let i = 0; i < 40; i++) first.write({ event: 'SERVER', status: 'X', i });
    await first.close();
    const { renameSync, writeFileSync } = await import('node:fs');
    renameSync(path, `${path}.2026-01-01T00-00-00-000Z`);
    writeFileSync(path, '');
    const second = new AuditLog({ path, maxBytes: 1024, maxFiles: 10 });
    await second.flush();
    assert.ok(readdirSync(state.dir).includes('audit.log.2026-01-01T00-00-00-000Z.gz'));
    assert.ok(!readdirSync(state.dir).includes('audit.log.2026-01-01T00-00-00-000Z'));
    await second.close();
  });

  it('the running server rotates audit.log at LOGGING_ROTATE_SIZE and keeps LOGGING_ROTATE_FILES archives', async () => {
    const k = await startTestKernel({ env: { LOGGING_ROTATE_SIZE: '2048', LOGGING_ROTATE_FILES: '2' } });
    try {
      for (let i = 0; i < 60; i++) {
        const res = await k.fetch(`${k.url}/metrics`, { headers: { origin: `https://evil-${i}.example` } });
        await res.arrayBuffer();
      }
      await k.kernel.runtime.audit.flush();
      const logs = readdirSync(join(k.stateDir, 'logs'));
      const auditArchives = logs.filter((f) => f.startsWith('audit.log.') && f.endsWith('.gz'));
      assert.equal(auditArchives.length, 2, logs.join(', '));
    } finally {
      await k.stop();
    }
  });
});

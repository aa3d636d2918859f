import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import { startTestKernel } from '../../helpers/kernel.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

describe('a start that fails after resources are open', () => {
  const state = tempStateDir();
  after(() => state.cleanup());

  it('closes what it opened (watchers, listeners), so the process is free to exit', async () => {
    const before = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles().length;
    // Step 6 fails (corrupt key) after step 3 opened the profile watcher.
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(state.dir, 'secrets'), { recursive: true });
    writeFileSync(join(state.dir, 'secrets/rsa_private.pem'), 'garbage');
    await assert.rejects(startTestKernel({ stateDir: state.dir, seedKeys: false }), /refusing to replace/);
    await new Promise((r) => setTimeout(r, 100));
    const afterHandles = (process as unknown as { _getActiveHandles(): unknown[] })._getActiveHandles()
      .length;
    assert.ok(afterHandles <= before, `no handle left open (${before} before, ${afterHandles} after)`);
  });
});

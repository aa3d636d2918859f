// The project's own tree as a release: what a package of it would hold, and the runner that ships with it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { listCoveredFiles } from '../../../kernel/integrity/tree.ts';
import { PROJECT_ROOT } from '../../../kernel/paths.ts';
import { listPackageFiles } from '../../../kernel/vendor/upgrade-package.ts';

describe('the real tree as an upgrade package', () => {
  it('holds every file the integrity manifest covers, plus what rebuilding and the next upgrade need', async () => {
    const files = await listPackageFiles(PROJECT_ROOT);
    for (const e of await listCoveredFiles(PROJECT_ROOT)) assert.ok(files.includes(e.path), e.path);
    for (const f of ['Dockerfile', '.env.example', 'upgrade/run_upgrade.ts', 'upgrade/README.md'])
      assert.ok(files.includes(f), f);
    for (const f of files)
      assert.doesNotMatch(f, /^(test|lab|bench|node_modules|secrets|clients|logs|backups)\//);
    assert.ok(!files.includes('.env'));
  });

  it('upgrade/run_upgrade.ts runs the kernel upgrade command', async () => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', join(PROJECT_ROOT, 'upgrade', 'run_upgrade.ts'), '--help'],
      {
        cwd: PROJECT_ROOT,
        env: { PATH: process.env.PATH ?? '' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve));
    assert.equal(code, 0);
    assert.match(stdout, /--dry-run/);
    assert.match(stdout, /--no-backup/);
    assert.match(stdout, /--expect-sha512/);
  });
});

// Libraries only some work needs (ssh2 for SFTP copies and VOS shells, node-tar for backups, restores
// and upgrades, pngjs for phone screenshots, yauzl for AXL toolkit downloads) are loaded by their first
// use, not at startup: the real server in its own process, as `npm start` runs it, with every shipped
// plugin loaded (INTEGRITY_MODE=warn on the unsigned checkout).
// That each works when first loaded is what the SFTP, VOS shell, backup, upgrade, screenshot and
// toolkit tests exercise.
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { after, describe, it } from 'node:test';
import { waitFor } from '../../helpers/processes.ts';
import { freePort, spawnServer } from '../../helpers/server-process.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

const PRELOAD = pathToFileURL(join(import.meta.dirname, 'loaded-modules-preload.ts')).href;

describe('libraries loaded on first use', { timeout: 180_000 }, () => {
  const state = tempStateDir('ucmcp-lazy-');
  const file = join(state.dir, 'loaded.json');
  after(() => state.cleanup());

  it('a server with every shipped plugin starts without ssh2, node-tar, pngjs and yauzl', async () => {
    const server = spawnServer({
      stateDir: state.dir,
      port: await freePort(),
      env: { INTEGRITY_MODE: 'warn', LOADED_MODULES_FILE: file },
      preload: [PRELOAD],
    });
    let loaded: { cjs: string[]; esm: string[] };
    try {
      await server.ready;
      server.child.kill('SIGUSR2');
      await waitFor('the loaded-modules file', () => existsSync(file), 10_000);
      loaded = JSON.parse(readFileSync(file, 'utf8')) as typeof loaded;
    } finally {
      await server.stop();
    }
    const has = (list: string[], re: RegExp): boolean => list.some((k) => re.test(k));
    // Controls: the modules that use them are loaded, and each way of seeing a package load works.
    for (const m of [
      'kernel/backup/sftp.ts',
      'kernel/backup/encrypt.ts',
      'plugins/_shared/vos/ssh-connect.ts',
      'plugins/cucm/phone/png.ts',
      'plugins/_shared/axl/toolkit.ts',
    ])
      assert.ok(has(loaded.esm, new RegExp(`/${m.replaceAll('.', '\\.')}$`)), `${m} loaded`);
    assert.ok(has(loaded.cjs, /[\\/]node_modules[\\/]node-forge[\\/]/), 'a CommonJS package is seen');
    assert.ok(has(loaded.esm, /\/node_modules\/zod\//), 'an ES module package is seen');

    for (const pkg of ['ssh2', 'pngjs', 'yauzl'])
      assert.ok(!has(loaded.cjs, new RegExp(`[\\\\/]node_modules[\\\\/]${pkg}[\\\\/]`)), `${pkg} not loaded`);
    assert.ok(!has([...loaded.esm, ...loaded.cjs], /[\\/]node_modules[\\/]tar[\\/]/), 'node-tar not loaded');
  });
});

import { createPrivateKey, type KeyObject } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { generateVendorKeyPair, writeVendorKeyPair } from '../../kernel/vendor/keys.ts';
import { issueLicense } from '../../kernel/vendor/license.ts';
import { stageSignedTree } from '../../kernel/vendor/stage.ts';

export const DEMO_PUBLISHER = 'demo-vendor';

/**
 * The demo plays the vendor: a throw-away publisher key (kept outside the tree, reused across runs),
 * a signed copy of this tree to run from (so the integrity check runs in enforce mode and passes), and
 * a license for this host signed with the same key.
 */
export async function prepareSignedInstall(opts: {
  projectRoot: string;
  demoDir: string;
  stateDir: string;
}): Promise<{
  installDir: string;
  files: number;
}> {
  const vendorDir = join(opts.demoDir, 'vendor');
  const privatePath = join(vendorDir, `${DEMO_PUBLISHER}.private.pem`);
  if (!existsSync(privatePath)) {
    mkdirSync(vendorDir, { recursive: true, mode: 0o700 });
    writeVendorKeyPair(vendorDir, DEMO_PUBLISHER, await generateVendorKeyPair());
  }
  const privateKey: KeyObject = createPrivateKey(readFileSync(privatePath));

  const installDir = join(opts.demoDir, 'install');
  rmSync(installDir, { recursive: true, force: true });
  const staged = await stageSignedTree({
    from: opts.projectRoot,
    to: installDir,
    privateKey,
    publisher: DEMO_PUBLISHER,
  });

  const license = await issueLicense({
    privateKey,
    publisher: DEMO_PUBLISHER,
    customer: 'uc-mcp-server demo',
    hostname: hostname(),
    products: ['cucm', 'imp', 'cuc'],
    tier: 'demo',
    expiresAt: new Date(Date.now() + 30 * 86_400_000),
    graceDays: 7,
  });
  mkdirSync(join(opts.stateDir, 'secrets'), { recursive: true, mode: 0o700 });
  writeFileSync(join(opts.stateDir, 'secrets', 'license.jwt'), license, { mode: 0o600 });
  return { installDir, files: staged.files };
}

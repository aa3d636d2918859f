import assert from 'node:assert/strict';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { after, describe, it } from 'node:test';
import { StartupError } from '../../../kernel/errors/index.ts';
import { ensureServerKeys } from '../../../kernel/keys/rsa-keys.ts';
import { statePaths } from '../../../kernel/paths.ts';
import { cachedRsaKeyPair, seedServerKeys } from '../../helpers/keys.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

describe('server RSA key pair (startup step 6)', () => {
  const state = tempStateDir();
  after(() => state.cleanup());
  const paths = statePaths(state.dir);

  it('verifies an existing RSA-4096 pair and gives its thumbprint as kid', async () => {
    seedServerKeys(state.dir);
    const keys = await ensureServerKeys(paths);
    assert.equal(keys.source, 'verified');
    assert.equal(keys.privateKey.asymmetricKeyDetails?.modulusLength, 4096);
    assert.match(keys.kid, /^[A-Za-z0-9_-]{43}$/);
  });

  it('restores a deleted public key from the private key', async () => {
    const pub = readFileSync(paths.rsaPublicKey, 'utf8');
    rmSync(paths.rsaPublicKey);
    assert.equal((await ensureServerKeys(paths)).source, 'public-restored');
    assert.equal(readFileSync(paths.rsaPublicKey, 'utf8'), pub);
  });

  it('refuses a corrupt private key and leaves it in place', async () => {
    writeFileSync(paths.rsaPrivateKey, '-----BEGIN PRIVATE KEY-----\ngarbage\n-----END PRIVATE KEY-----\n');
    await assert.rejects(
      ensureServerKeys(paths),
      (e: unknown) => e instanceof StartupError && /refusing to replace/.test(e.message),
    );
    assert.match(readFileSync(paths.rsaPrivateKey, 'utf8'), /garbage/);
  });

  it('refuses a public key that belongs to another private key', async () => {
    seedServerKeys(state.dir);
    writeFileSync(paths.rsaPublicKey, cachedRsaKeyPair('second').publicPem);
    await assert.rejects(
      ensureServerKeys(paths),
      (e: unknown) => e instanceof StartupError && /does not match/.test(e.message),
    );
  });

  it('refuses a public key alone (regenerating would orphan every backup)', async () => {
    rmSync(paths.rsaPrivateKey);
    await assert.rejects(
      ensureServerKeys(paths),
      (e: unknown) => e instanceof StartupError && /without its private key/.test(e.message),
    );
  });
});

import { generateKeyPairSync } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

// RSA-4096 generation costs seconds; tests that do not test generation reuse one cached pair.
const CACHE_DIR = join(tmpdir(), 'uc-mcp-test-keys');

export function cachedRsaKeyPair(slot = 'default'): { privatePem: string; publicPem: string } {
  const priv = join(CACHE_DIR, `${slot}_private.pem`);
  const pub = join(CACHE_DIR, `${slot}_public.pem`);
  if (!existsSync(priv) || !existsSync(pub)) {
    mkdirSync(CACHE_DIR, { recursive: true });
    const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 4096 });
    // Write then rename so parallel test files never read half a key.
    const tag = `${process.pid}.${Date.now()}`;
    writeFileSync(`${priv}.${tag}`, privateKey.export({ type: 'pkcs8', format: 'pem' }));
    writeFileSync(`${pub}.${tag}`, publicKey.export({ type: 'spki', format: 'pem' }));
    renameSync(`${priv}.${tag}`, priv);
    renameSync(`${pub}.${tag}`, pub);
  }
  return { privatePem: readFileSync(priv, 'utf8'), publicPem: readFileSync(pub, 'utf8') };
}

/** Puts the cached server key pair into a state directory's secrets/ (as startup step 6 expects). */
export function seedServerKeys(stateDir: string, slot = 'default'): void {
  cachedRsaKeyPair(slot);
  const secrets = join(stateDir, 'secrets');
  mkdirSync(secrets, { recursive: true, mode: 0o700 });
  copyFileSync(join(CACHE_DIR, `${slot}_private.pem`), join(secrets, 'rsa_private.pem'));
  copyFileSync(join(CACHE_DIR, `${slot}_public.pem`), join(secrets, 'rsa_public.pem'));
}

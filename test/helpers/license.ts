import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { keyFingerprint, type PublisherKey } from '../../kernel/integrity/index.ts';
import { issueLicense } from '../../kernel/vendor/license.ts';
import { cachedRsaKeyPair } from './keys.ts';

/** A throw-away vendor for tests: the cached RSA-4096 'vendor' pair, as a publisher key the kernel may trust. */
export function testVendor(): { publisher: string; privateKey: KeyObject; publisherKey: PublisherKey } {
  const pair = cachedRsaKeyPair('vendor');
  const key = createPublicKey(pair.publicPem);
  return {
    publisher: 'test-vendor',
    privateKey: createPrivateKey(pair.privatePem),
    publisherKey: {
      id: 'test-vendor',
      key,
      path: 'manifests/publishers/test-vendor.pem',
      fingerprint: keyFingerprint(key),
      vouched: true,
    },
  };
}

export interface TestLicense {
  products: string[];
  /** Expiry relative to now (or to `now`), in days; negative for an already expired one. */
  expiresInDays?: number;
  graceDays?: number;
  tier?: string;
  hostname?: string;
  now?: number;
}

/** Writes secrets/license.jwt signed by the test vendor. */
export async function writeTestLicense(stateDir: string, lic: TestLicense): Promise<void> {
  const v = testVendor();
  const now = lic.now ?? Date.now();
  const jwt = await issueLicense({
    privateKey: v.privateKey,
    publisher: v.publisher,
    customer: 'test-customer',
    hostname: lic.hostname ?? hostname(),
    products: lic.products,
    tier: lic.tier ?? 'enterprise',
    expiresAt: new Date(now + (lic.expiresInDays ?? 365) * 86_400_000),
    graceDays: lic.graceDays ?? 30,
    issuedAt: new Date(now - 60_000),
  });
  mkdirSync(join(stateDir, 'secrets'), { recursive: true, mode: 0o700 });
  writeFileSync(join(stateDir, 'secrets', 'license.jwt'), jwt, { mode: 0o600 });
}

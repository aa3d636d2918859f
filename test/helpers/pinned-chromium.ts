// Headless system Chromium for tests that drive the server's pages, trusting exactly the server's key.
import { createHash, X509Certificate } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

export const CHROMIUM = '/usr/bin/chromium';

/** Why a browser test cannot run here (a printed skip reason), or false when Chromium is installed. */
export function chromiumSkip(what: string, coveredBy: string): string | false {
  if (existsSync(CHROMIUM)) return false;
  const reason = `${CHROMIUM} is not installed (apt-get install -y chromium); ${coveredBy}`;
  console.log(`# skipping ${what}: ${reason}`);
  return reason;
}

/** base64 SHA-256 of the certificate's public key: Chromium then trusts exactly this key, nothing else. */
function spkiPin(certPem: string): string {
  const spki = new X509Certificate(certPem).publicKey.export({ type: 'spki', format: 'der' });
  return createHash('sha256').update(spki).digest('base64');
}

/** Launches headless Chromium that accepts the server certificate `certPem` by its key pin only. */
export function launchPinnedChromium(certPem: string): Promise<Browser> {
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      `--ignore-certificate-errors-spki-list=${spkiPin(certPem)}`,
    ],
  });
}

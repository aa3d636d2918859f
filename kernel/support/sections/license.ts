import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { readTrustRoot, usableKeys, type IntegrityMode } from '../../integrity/index.ts';
import { inspectLicense } from '../../license/index.ts';
import { REDACTED, scrubText } from '../../logging/redact.ts';
import type { StatePaths } from '../../paths.ts';
import { containsSecret } from '../secret-shapes.ts';

/**
 * The license state without the license (functional spec, Versioning 8): the verdict the server would
 * reach, with the publisher keys it would trust. Neither the file, its claims nor its signature are
 * copied; the reason is scrubbed because it may quote a header value from the file.
 */
export async function licenseSection(
  paths: StatePaths,
  projectRoot: string,
  mode: IntegrityMode,
): Promise<Record<string, unknown>> {
  let text: string | null = null;
  try {
    text = readFileSync(join(paths.secrets, 'license.jwt'), 'utf8');
  } catch {
    // Missing: inspectLicense reports it as INVALID, "no license file".
  }
  const trust = await readTrustRoot(projectRoot);
  const ev = await inspectLicense(text, usableKeys(trust, mode), hostname(), Date.now());
  return {
    file_present: text !== null,
    state: ev.status.state,
    tier: ev.status.tier,
    products: ev.status.products,
    expires_at: ev.expiresAt ?? ev.status.expiresAt ?? null,
    grace_ends_at: ev.graceEndsAt ?? null,
    issued_at: ev.issuedAt ?? null,
    reason: ev.status.reason ? shownReason(ev.status.reason) : null,
    signature: ev.signature,
    publisher: ev.publisher ?? null,
    publisher_key_fingerprint: ev.fingerprint ?? null,
    hostname_matches: ev.hostnameMatches ?? null,
    integrity_mode: mode,
  };
}

/** A reason may quote a value read from the file (a publisher name, an algorithm): hide any secret-shaped one. */
function shownReason(reason: string): string {
  return scrubText(reason).replace(/"([^"]*)"/g, (whole, inner: string) =>
    containsSecret(inner) ? `"${REDACTED}"` : whole,
  );
}

import { existsSync, renameSync, rmSync } from 'node:fs';
import { dirname } from 'node:path';
import { fsyncDir, writeFileAtomic } from '../store/atomic-file.ts';

// A certificate and its key are two files, which cannot be replaced in one step: both are staged as
// `.next` first, then renamed into place, so a crash leaves either the old pair (staging incomplete:
// dropped at the next start) or a staged pair that the next start finishes moving in. Never a key
// beside another key's certificate.

const staged = (path: string): string => `${path}.next`;

/** Writes a pair: the key 0600, the certificate 0644 (it is public). */
export function writePair(certPath: string, keyPath: string, certPem: string, keyPem: string): void {
  writeFileAtomic(staged(keyPath), keyPem, 0o600);
  writeFileAtomic(staged(certPath), certPem, 0o644);
  completePendingPair(certPath, keyPath);
}

/**
 * Finishes or drops a pair write a crash interrupted. The certificate is staged after the key and moved
 * in after it, so a staged certificate means the whole pair was staged (the key may already be in place).
 */
export function completePendingPair(certPath: string, keyPath: string): void {
  const key = staged(keyPath);
  const cert = staged(certPath);
  if (existsSync(cert)) {
    if (existsSync(key)) renameSync(key, keyPath);
    renameSync(cert, certPath);
    fsyncDir(dirname(certPath));
  } else if (existsSync(key)) {
    rmSync(key, { force: true });
  }
}

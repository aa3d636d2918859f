import { existsSync, mkdirSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../store/atomic-file.ts';

export interface ProfileSyncResult {
  copied: string[];
  kept: string[];
}

/**
 * Startup step 3: copies each shipped default profile to the live profiles folder when it is missing.
 * An existing file is the operator's and is never overwritten, even if the shipped default changed.
 */
export function syncDefaultProfiles(defaultsDir: string, liveDir: string): ProfileSyncResult {
  mkdirSync(liveDir, { recursive: true, mode: 0o755 });
  const result: ProfileSyncResult = { copied: [], kept: [] };
  for (const file of readdirSync(defaultsDir)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const target = join(liveDir, file);
    if (existsSync(target)) {
      result.kept.push(file);
    } else {
      // Atomic: a crash mid-copy must not leave a torn profile that later starts keep as the operator's.
      writeFileAtomic(target, readFileSync(join(defaultsDir, file)), 0o644);
      result.copied.push(file);
    }
  }
  return result;
}

import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { writeFileAtomic } from '../store/atomic-file.ts';
import { parseRecord } from './change-record.ts';
import { readLinesSync } from './journal-file.ts';

/**
 * Puts a restored journal's records into the live journal, with the server stopped: each client's
 * records are the union of both, by id, in id (time) order. A restore brings the server's state back,
 * not the nodes': the changes made on them since the backup really happened, so the live records stay,
 * and those only the backup still holds (dropped since by a bound) come back until the next compaction.
 * Returns the clients whose file changed.
 */
export function mergeJournals(restoredDir: string, liveDir: string): string[] {
  const merged: string[] = [];
  for (const name of readdirSync(restoredDir).filter((f) => f.endsWith('.jsonl') && !f.startsWith('.'))) {
    const live = join(liveDir, name);
    const byId = new Map<string, string>();
    for (const path of [join(restoredDir, name), ...(existsSync(live) ? [live] : [])]) {
      for (const line of readLinesSync(path).lines) {
        const r = parseRecord(line);
        if (r) byId.set(r.id, line);
      }
    }
    const before = existsSync(live) ? readLinesSync(live).lines.length : 0;
    if (byId.size === before && existsSync(live)) continue;
    const ids = [...byId.keys()].sort();
    writeFileAtomic(live, ids.map((id) => `${byId.get(id) as string}\n`).join(''));
    merged.push(name.slice(0, -'.jsonl'.length));
  }
  return merged;
}

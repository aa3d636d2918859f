// The Disaster Recovery System's per-backup logs on the Unity Connection node, which `file list
// activelog platform/drf/log` shows: the read-only way to see whether and when the node was backed up.
// Dates are relative to the time of the command, so the lab never goes stale.
import { nightlyRunStart } from '../state/nightly.ts';
import type { Weaknesses } from '../weaknesses/index.ts';
import type { LabFile } from '../vos/facts.ts';

export const DRF_LOG_DIR = 'platform/drf/log';
/** What one Unity Connection backup saves: one log per component, `<start>_b_<server>_<component>.log`. */
const COMPONENTS: [string, number][] = [
  ['cuc_cuc_database', 52_118],
  ['cuc_cuc_greetings_voicenames', 7_240],
  ['cuc_cuc_mailboxstore', 61_903],
  ['platform_platform', 3_911],
];

function stamp(d: Date): string {
  return d.toISOString().slice(0, 19).replace(/[T:]/g, '-');
}

/**
 * Weak: one backup right after installation, 45 days ago, and the schedule disabled since. Hardened: the
 * nightly schedule at 03:00 UTC, the last seven runs kept.
 */
export function cucDrfLogs(
  node: string,
  w: Weaknesses,
): (partition: string, dir: string, now: Date) => LabFile[] | undefined {
  const ages = w.has('cuc-no-recent-backup') ? [45] : [1, 2, 3, 4, 5, 6, 7];
  return (partition, dir, now) => {
    if (partition !== 'activelog' || dir !== DRF_LOG_DIR) return undefined;
    const files: LabFile[] = [
      { name: 'drfMaster.log', size: 19_804, modified: new Date(now.getTime() - 3_600_000) },
      { name: 'drfLocal.log', size: 15_227, modified: new Date(now.getTime() - 3_600_000) },
    ];
    for (const age of ages) {
      const start = nightlyRunStart(now, 3, age);
      COMPONENTS.forEach(([component, size], i) =>
        files.push({
          name: `${stamp(start)}_b_${node}_${component}.log`,
          size,
          modified: new Date(start.getTime() + (i + 1) * 80_000),
        }),
      );
    }
    return files;
  };
}

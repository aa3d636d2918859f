// The Disaster Recovery System's per-backup logs on the IM&P publisher, which `file list activelog
// platform/drf/log` shows. Dates are relative to the time of the command, so the lab never goes stale.
import { nightlyRunStart } from '../state/nightly.ts';
import type { LabFile } from '../vos/facts.ts';
import type { Weaknesses } from '../weaknesses/index.ts';

export const DRF_LOG_DIR = 'platform/drf/log';
/** What one IM&P backup saves: one log per component. */
const COMPONENTS = ['cup_platform', 'cup_imdb', 'cup_pe', 'cup_syslogagt'];

/** `2025-11-30-02-00-00`, the start time a DRF log's name begins with. */
function stamp(d: Date): string {
  return d.toISOString().slice(0, 19).replace(/[T:]/g, '-');
}

/**
 * Weak: one manual backup soon after installation, 97 days ago, and none since. Hardened: the nightly
 * schedule at 02:00, the last seven runs kept.
 */
export function drfLogs(
  node: string,
  w: Weaknesses,
): (partition: string, dir: string, now: Date) => LabFile[] | undefined {
  const ages = w.has('imp-backup-stale') ? [97] : [1, 2, 3, 4, 5, 6, 7];
  return (partition, dir, now) => {
    if (partition !== 'activelog' || dir !== DRF_LOG_DIR) return undefined;
    const files: LabFile[] = [
      { name: 'drfMaster0000001.log', size: 48_211, modified: new Date(now.getTime() - 3_600_000) },
      { name: 'drfLocal0000001.log', size: 20_877, modified: new Date(now.getTime() - 3_600_000) },
    ];
    for (const age of ages) {
      const start = nightlyRunStart(now, 2, age);
      COMPONENTS.forEach((c, i) =>
        files.push({
          name: `${stamp(start)}_b_${node}_${c}.log`,
          size: 3_000 + 700 * i,
          modified: new Date(start.getTime() + (i + 1) * 60_000),
        }),
      );
    }
    return files;
  };
}

// The files the CUCM publisher's `file list` shows: the Disaster Recovery System logs, which are how a
// read-only auditor sees whether (and when) the cluster was last backed up.
import type { LabFile } from '../vos/facts.ts';
import type { Weaknesses } from '../weaknesses/index.ts';
import { CUCM_PUBLISHER, CUCM_SUBSCRIBER } from './topology.ts';

export const DRF_LOG_DIR = 'platform/drf/log';

/** What one nightly backup leaves: a log per component and server, named `<start>_b_<server>_<component>.log`. */
const BACKUP_COMPONENTS: [string, string, number][] = [
  [CUCM_PUBLISHER, 'ucm_ccmdb', 48_212],
  [CUCM_PUBLISHER, 'ucm_tftp', 6_404],
  [CUCM_PUBLISHER, 'platform_platform', 3_917],
  [CUCM_SUBSCRIBER, 'ucm_tftp', 6_388],
  [CUCM_SUBSCRIBER, 'platform_platform', 3_902],
];

function stamp(d: Date): string {
  return d.toISOString().slice(0, 19).replace(/[T:]/g, '-');
}

/**
 * `listFiles` for the publisher's facts. Hardened: a backup at 02:00 UTC each of the last seven nights.
 * Weak: no backup device or schedule was ever set up, so the folder holds the services' own logs only.
 */
export function cucmFiles(
  w: Weaknesses,
): (partition: string, dir: string, now: Date) => LabFile[] | undefined {
  return (partition, dir, now) => {
    if (partition !== 'activelog' || dir !== DRF_LOG_DIR) return undefined;
    const files: LabFile[] = [
      { name: 'drfMaster.log', size: 21_530, modified: new Date(now.getTime() - 3_600_000) },
      { name: 'drfLocal.log', size: 18_044, modified: new Date(now.getTime() - 3_600_000) },
    ];
    if (w.has('cucm-no-backup')) return files;
    for (let night = 1; night <= 7; night++) {
      const start = new Date(now.getTime() - night * 86_400_000);
      start.setUTCHours(2, 0, 0, 0);
      BACKUP_COMPONENTS.forEach(([server, component, size], i) =>
        files.push({
          name: `${stamp(start)}_b_${server}_${component}.log`,
          size,
          modified: new Date(start.getTime() + (i + 1) * 95_000),
        }),
      );
    }
    return files;
  };
}

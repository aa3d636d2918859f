// The files the CUCM publisher's `file list` shows: the Disaster Recovery System logs, which are how a
// read-only auditor sees whether (and when) the cluster was last backed up, and the history
// `utils disaster_recovery history backup` prints from the same runs (lab/vos/drf.ts).
import { drfModel, type BackupRun, type DrfModel } from '../vos/drf.ts';
import type { Weaknesses } from '../weaknesses/index.ts';
import { CUCM_PUBLISHER, CUCM_SUBSCRIBER } from './topology.ts';

/** What one nightly backup leaves: a log per component and server, named `<start>_b_<server>_<component>.log`. */
const BACKUP_COMPONENTS = [
  { server: CUCM_PUBLISHER, component: 'ucm_ccmdb', size: 48_212 },
  { server: CUCM_PUBLISHER, component: 'ucm_tftp', size: 6_404 },
  { server: CUCM_PUBLISHER, component: 'platform_platform', size: 3_917 },
  { server: CUCM_SUBSCRIBER, component: 'ucm_tftp', size: 6_388 },
  { server: CUCM_SUBSCRIBER, component: 'platform_platform', size: 3_902 },
];

/**
 * The publisher's DRF folder and history. Hardened: a backup at 02:00 UTC each of the last seven nights.
 * Weak (`cucm-no-backup`): no backup device or schedule was ever set up, so the folder holds the
 * services' own logs only and the history is empty.
 */
export function cucmFiles(w: Weaknesses): DrfModel {
  const runs = (now: Date): BackupRun[] => {
    if (w.has('cucm-no-backup')) return [];
    const out: BackupRun[] = [];
    for (let night = 1; night <= 7; night++) {
      const start = new Date(now.getTime() - night * 86_400_000);
      start.setUTCHours(2, 0, 0, 0);
      out.push({ start, result: 'SUCCESS', type: 'SCHEDULED' });
    }
    return out;
  };
  return drfModel({
    runs,
    components: BACKUP_COMPONENTS,
    stepMs: 95_000,
    ownLogs: (now) => [
      { name: 'drfMaster.log', size: 21_530, modified: new Date(now.getTime() - 3_600_000) },
      { name: 'drfLocal.log', size: 18_044, modified: new Date(now.getTime() - 3_600_000) },
    ],
  });
}

// The Disaster Recovery System's runs on the Unity Connection node: the per-backup logs `file list
// activelog platform/drf/log` shows and the history `utils disaster_recovery history backup` prints
// (lab/vos/drf.ts). Dates are relative to the time of the command, so the lab never goes stale.
import { nightlyRunStart } from '../state/nightly.ts';
import { drfModel, type BackupRun, type DrfModel } from '../vos/drf.ts';
import type { Weaknesses } from '../weaknesses/index.ts';

/** What one Unity Connection backup saves: one log per component, `<start>_b_<server>_<component>.log`. */
const COMPONENTS: [string, number][] = [
  ['cuc_cuc_database', 52_118],
  ['cuc_cuc_greetings_voicenames', 7_240],
  ['cuc_cuc_mailboxstore', 61_903],
  ['platform_platform', 3_911],
];

/**
 * Hardened: the nightly schedule at 03:00 UTC, the last seven runs kept. Weak (`cuc-no-recent-backup`):
 * one backup right after installation, 45 days ago, and the schedule disabled since; a manual backup
 * tried two days ago failed, which must not count as a recent backup.
 */
export function cucDrfLogs(node: string, w: Weaknesses): DrfModel {
  const runs = (now: Date): BackupRun[] =>
    w.has('cuc-no-recent-backup')
      ? [
          { start: nightlyRunStart(now, 3, 45), result: 'SUCCESS', type: 'SCHEDULED' },
          { start: nightlyRunStart(now, 3, 2), result: 'ERROR', type: 'MANUAL' },
        ]
      : [7, 6, 5, 4, 3, 2, 1].map((age) => ({
          start: nightlyRunStart(now, 3, age),
          result: 'SUCCESS',
          type: 'SCHEDULED',
        }));
  return drfModel({
    runs,
    // Weak: the schedule that made the old backup was disabled since (the CLI lists it as disabled).
    ...(w.has('cuc-no-recent-backup')
      ? { schedules: [{ name: 'DailyBackup', device: 'BACKUP_SFTP', enabled: false }] }
      : {}),
    components: COMPONENTS.map(([component, size]) => ({ server: node, component, size })),
    stepMs: 80_000,
    ownLogs: (now) => [
      { name: 'drfMaster.log', size: 19_804, modified: new Date(now.getTime() - 3_600_000) },
      { name: 'drfLocal.log', size: 15_227, modified: new Date(now.getTime() - 3_600_000) },
    ],
  });
}

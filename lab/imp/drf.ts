// The Disaster Recovery System's runs on the IM&P publisher: the per-backup logs `file list activelog
// platform/drf/log` shows and the history `utils disaster_recovery history backup` prints (lab/vos/drf.ts).
// Dates are relative to the time of the command, so the lab never goes stale.
import { nightlyRunStart } from '../state/nightly.ts';
import { drfModel, type BackupRun, type DrfModel } from '../vos/drf.ts';
import type { Weaknesses } from '../weaknesses/index.ts';

/** What one IM&P backup saves: one log per component. */
const COMPONENTS = ['cup_platform', 'cup_imdb', 'cup_pe', 'cup_syslogagt'];

/**
 * Hardened: the nightly schedule at 02:00, the last seven runs kept. Weak (`imp-backup-stale`): one
 * manual backup soon after installation, 97 days ago; the nightly schedule was set up since but every
 * run of the last three nights failed (the SFTP server refuses the login), so none of them counts.
 */
export function drfLogs(node: string, w: Weaknesses): DrfModel {
  const runs = (now: Date): BackupRun[] =>
    w.has('imp-backup-stale')
      ? [
          { start: nightlyRunStart(now, 2, 97), result: 'SUCCESS', type: 'MANUAL' },
          ...[3, 2, 1].map((age): BackupRun => ({
            start: nightlyRunStart(now, 2, age),
            result: 'ERROR',
            type: 'SCHEDULED',
          })),
        ]
      : [7, 6, 5, 4, 3, 2, 1].map((age) => ({
          start: nightlyRunStart(now, 2, age),
          result: 'SUCCESS',
          type: 'SCHEDULED',
        }));
  return drfModel({
    runs,
    components: COMPONENTS.map((component, i) => ({ server: node, component, size: 3_000 + 700 * i })),
    stepMs: 60_000,
    ownLogs: (now) => [
      { name: 'drfMaster0000001.log', size: 48_211, modified: new Date(now.getTime() - 3_600_000) },
      { name: 'drfLocal0000001.log', size: 20_877, modified: new Date(now.getTime() - 3_600_000) },
    ],
  });
}

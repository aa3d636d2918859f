// `utils disaster_recovery history backup` as the CLI reference prints it (its own example, with the
// node's time zone and an ERROR row that lists no feature), and as the lab prints it: one parser for the
// three products' backup checks, where only a SUCCESS row is a backup.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { judgeBackupHistory, parseDrfHistory } from '../../../../plugins/_shared/audit/drf-history.ts';

const REFERENCE_EXAMPLE = [
  'admin: utils disaster_recovery history backup',
  'Tar Filename: Backup Device: Completed On: Result: Backup Type: Features Backed Up:',
  '2009-10-30-14-53-32.tar TAPE Fri Oct 30 14:55:31 CDT 2009 ERROR MANUAL',
  '2009-12-10-10-30-17.tar TAPE Thu Dec 10 10:35:22 CST 2009 SUCCESS MANUAL CDR_CAR,CCM',
].join('\n');

describe('the DRS backup history', () => {
  it('reads the CLI reference example: zones, an ERROR row without features', () => {
    const runs = parseDrfHistory(REFERENCE_EXAMPLE);
    assert.deepEqual(
      runs?.map((r) => [r.tar, r.device, r.result, r.type, r.features, r.when?.toISOString()]),
      [
        ['2009-10-30-14-53-32.tar', 'TAPE', 'ERROR', 'MANUAL', '', '2009-10-30T14:53:32.000Z'],
        ['2009-12-10-10-30-17.tar', 'TAPE', 'SUCCESS', 'MANUAL', 'CDR_CAR,CCM', '2009-12-10T10:30:17.000Z'],
      ],
    );
    const now = Date.UTC(2009, 11, 12);
    assert.equal(judgeBackupHistory(REFERENCE_EXAMPLE, 7, now), undefined);
    assert.equal(
      judgeBackupHistory(REFERENCE_EXAMPLE, 7, Date.UTC(2009, 11, 30)),
      'last successful backup 19 days ago (2009-12-10)',
    );
  });

  it('never counts a failed run, however recent', () => {
    const failedOnly = REFERENCE_EXAMPLE.split('\n').slice(0, 3).join('\n');
    assert.equal(
      judgeBackupHistory(failedOnly, 7, Date.UTC(2009, 9, 31)),
      'no successful backup: all 1 backup runs in the DRS history failed',
    );
  });

  it('tells an empty history from an answer that is no history at all', () => {
    assert.equal(
      judgeBackupHistory(
        'Tar Filename: Backup Device: Completed On: Result: Backup Type: Features Backed Up:',
        7,
      ),
      'no backup has ever run (the DRS backup history is empty)',
    );
    assert.equal(parseDrfHistory('Executed command unsuccessfully'), undefined);
    assert.match(
      judgeBackupHistory('', 7) ?? '',
      /^cannot judge: no DRS backup history in the answer \(empty\)$/,
    );
  });
});

// The DRS answers the `*_drf_status` tools parse, in the shapes their sources show: the history as the
// CLI reference's example prints it, the schedule list as its example does (tabs, a rule), and the
// status in the labels a public parser of the real answer reads (ponchotitlan/ansible_cucm_ssh_module,
// cucm_ssh.py); no Cisco document prints a status answer, so that sample is assembled from those labels.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  parseDrfHistory,
  parseDrfSchedules,
  parseDrfStatus,
  tarStart,
} from '../../../../plugins/_shared/vos/drf-output.ts';

const STATUS_SAMPLE = [
  'admin:utils disaster_recovery status backup',
  'Status: SUCCESS :Backup Completed...',
  'Tar Filename: 2025-11-30-02-00-00',
  'Storage Location: NETWORK',
  'Operation: backup',
  'Percentage Complete: 100',
  'UCM cucm-pub CCMDB SUCCESS Sun Nov 30 02:00:00 EST 2025 activelog/platform/drf/log/2025-11-30-02-00-00_b_cucm-pub_ucm_ccmdb.log',
  'PLATFORM cucm-sub1 PLATFORM SUCCESS Sun Nov 30 02:04:10 EST 2025 activelog/platform/drf/log/2025-11-30-02-00-00_b_cucm-sub1_platform_platform.log',
].join('\r\n');

/** The CLI reference's example of `utils disaster_recovery schedule list`, tabs and all. */
const SCHEDULE_REFERENCE = [
  'admin: utils disaster_recovery schedule list',
  'schedule name\tdevice name\tSchedule Status',
  '-----------------------------------------',
  'schedule1\t\t\t\t \tdevice 1\t\t\t\t\tenabled',
  'schedule2\t\t\t\t\t device 2\t\t\t\t\tdisabled',
].join('\n');

describe('DRS answers', () => {
  it('reads the status: labels, percentage and one row per component with its log', () => {
    const s = parseDrfStatus(STATUS_SAMPLE);
    assert.ok(s);
    assert.equal(s.available, true);
    assert.equal(s.result, 'SUCCESS');
    assert.equal(s.status, 'SUCCESS :Backup Completed...');
    assert.equal(s.tar, '2025-11-30-02-00-00');
    assert.equal(s.storage, 'NETWORK');
    assert.equal(s.operation, 'backup');
    assert.equal(s.percentComplete, 100);
    assert.deepEqual(
      s.components.map((c) => [c.feature, c.server, c.component, c.result, c.when?.toISOString()]),
      [
        ['UCM', 'cucm-pub', 'CCMDB', 'SUCCESS', '2025-11-30T02:00:00.000Z'],
        ['PLATFORM', 'cucm-sub1', 'PLATFORM', 'SUCCESS', '2025-11-30T02:04:10.000Z'],
      ],
    );
    assert.match(s.components[0]!.log, /_b_cucm-pub_ucm_ccmdb\.log$/);
    assert.equal(tarStart(s.tar)?.toISOString(), '2025-11-30T02:00:00.000Z');
  });

  it('tells "no status" from an answer it does not know', () => {
    assert.deepEqual(parseDrfStatus('drfCliMsg: No backup status available'), {
      available: false,
      components: [],
    });
    assert.equal(parseDrfStatus('Executed command unsuccessfully'), undefined);
    assert.equal(parseDrfStatus(''), undefined);
  });

  it('reads the reference example of the schedule list, a device name with a space included', () => {
    assert.deepEqual(parseDrfSchedules(SCHEDULE_REFERENCE), [
      { name: 'schedule1', device: 'device 1', enabled: true },
      { name: 'schedule2', device: 'device 2', enabled: false },
    ]);
    assert.deepEqual(parseDrfSchedules(SCHEDULE_REFERENCE.split('\n').slice(0, 3).join('\n')), []);
    assert.equal(parseDrfSchedules('Invalid command'), undefined);
  });

  it('the history parser is the one the audits use (one parser for both)', async () => {
    const audit = await import('../../../../plugins/_shared/audit/drf-history.ts');
    assert.equal(audit.parseDrfHistory, parseDrfHistory);
  });
});

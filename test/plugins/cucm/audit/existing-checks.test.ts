// The conditions of the CUCM audit's original checks on answers a real node can give: the tokenless
// mixed mode that needs no CTL Provider, the real NTP and release outputs, a DRS history whose newest
// run failed, and parameter rows that are absent, which must never read as a pass. Also that every one
// of these checks cites its sources, or says which name no source confirms.
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { EvidenceResult } from '../../../../plugins/_shared/audit/checklist.ts';
import { CUCM_CHECKLIST } from '../../../../plugins/cucm/audit/checklist.ts';
import { AUDITED_PARAMETERS, E } from '../../../../plugins/cucm/audit/evidence.ts';
import { certEvidence, drfEvidence } from '../../../helpers/cli-tool-answers.ts';

const check = (id: string) => {
  const c = CUCM_CHECKLIST.checks.find((x) => x.id === id);
  assert.ok(c, id);
  return c;
};
const ok = (data: Record<string, unknown>): EvidenceResult => ({ ok: true, data });
const cli = (output: string): EvidenceResult => ok({ output });
const rows = (...r: Record<string, unknown>[]): EvidenceResult => ok({ rows: r });
const twoNodes = ok({
  rows: [
    { name: 'CM_cucm-pub', processNodeName: 'cucm-pub' },
    { name: 'CM_cucm-sub1', processNodeName: 'cucm-sub1' },
  ],
});
const DAY = 86_400_000;

/** `Thu Nov 20 02:07:55 UTC 2025`, as the CLI prints dates. */
function cliDate(d: Date): string {
  const s = d.toUTCString();
  return `${s.slice(0, 3)} ${s.slice(8, 11)} ${String(d.getUTCDate()).padStart(2, '0')} ${d.toISOString().slice(11, 19)} UTC ${d.getUTCFullYear()}`;
}
function history(...runs: [daysAgo: number, result: 'SUCCESS' | 'ERROR'][]): string {
  const lines = runs.map(([days, result]) => {
    const start = new Date(Date.now() - days * DAY);
    const tar = `${start.toISOString().slice(0, 19).replace(/[T:]/g, '-')}.tar`;
    return `${tar}   BACKUP_SFTP   ${cliDate(new Date(start.getTime() + 475_000))}   ${result}   SCHEDULED   ${result === 'SUCCESS' ? 'UCM,CDR_CAR,PLM,' : ''}`;
  });
  return [
    'Tar Filename:             Backup Device:   Completed On:                   Result:   Backup Type:   Features Backed Up:',
    ...lines,
  ].join('\n');
}

describe('CUCM-SVC-01 under tokenless mixed mode', () => {
  const services = (capf: string, ctl: string): EvidenceResult =>
    cli(
      [
        'Cisco CallManager[STARTED]',
        `Cisco Certificate Authority Proxy Function${capf}`,
        `Cisco CTL Provider${ctl}`,
        'Primary Node =true',
      ].join('\n'),
    );

  it('passes with CAPF started and the CTL Provider not activated (utils ctl set-cluster mixed-mode needs none)', () => {
    assert.equal(
      check('CUCM-SVC-01').evaluate({ services: services('[STARTED]', '[STOPPED]  Service Not Activated') }),
      undefined,
    );
  });

  it('still fires when CAPF is not activated, whatever the CTL Provider', () => {
    for (const ctl of ['[STARTED]', '[STOPPED]  Service Not Activated'])
      assert.equal(
        check('CUCM-SVC-01').evaluate({ services: services('[STOPPED]  Service Not Activated', ctl) }),
        'Cisco Certificate Authority Proxy Function[STOPPED] Service Not Activated',
      );
    assert.match(check('CUCM-SVC-01').evaluate({ services: cli('') }) ?? '', /cannot judge/);
  });
});

describe('CUCM-OS-02 and CUCM-OS-03 read the real outputs', () => {
  it('reports the unsynchronised answer of utils ntp status, passes a synchronised one', () => {
    const unsync = cli(
      'ntpd (pid 2871) is running...\n\n     remote           refid      st t when poll reach\n==========\n 10.10.20.250    .INIT.          16 u    - 1024    0\n\n\nunsynchronised\n  time server re-starting\n   polling server every 64 s\n',
    );
    assert.equal(
      check('CUCM-OS-02').evaluate({ ntp: unsync }),
      'NTP is not synchronised: unsynchronised time server re-starting polling server every 64 s',
    );
    assert.equal(
      check('CUCM-OS-02').evaluate({
        ntp: cli('synchronised to NTP server (10.10.20.250) at stratum 2\n   time correct to within 27 ms'),
      }),
      undefined,
    );
    // An answer in neither form is reported as not judged, never passed nor called unsynchronised.
    assert.match(check('CUCM-OS-02').evaluate({ ntp: cli('Command timed out') }) ?? '', /^cannot judge/);
  });

  it('reports a release before 14 from show version active', () => {
    const version = (v: string): EvidenceResult =>
      cli(
        `Active Master Version: ${v}\nActive Version Installed Software Options:\nNo Installed Software Options Found.`,
      );
    assert.equal(
      check('CUCM-OS-03').evaluate({ version: version('12.5.1.17900-64') }),
      'active release 12.5.1.17900-64',
    );
    assert.equal(check('CUCM-OS-03').evaluate({ version: version('14.0.1.13900-155') }), undefined);
    assert.equal(check('CUCM-OS-03').evaluate({ version: version('15.0.1.11900-40') }), undefined);
  });
});

describe('CUCM-BKP-01 reads the DRS history, where a failed run is no backup', () => {
  // The check judges the history as cucm_drf_status parses it.
  const bkp = (out: string) => check('CUCM-BKP-01').evaluate({ backups: drfEvidence(out) });

  it('passes a successful run within 7 days', () => {
    assert.equal(bkp(history([9, 'SUCCESS'], [1, 'SUCCESS'])), undefined);
  });

  it('fires when the only recent runs failed, naming the last success and the failures after it', () => {
    assert.match(
      bkp(history([20, 'SUCCESS'], [2, 'ERROR'], [1, 'ERROR'])) ?? '',
      /^last successful backup 20 days ago \(\d{4}-\d\d-\d\d\); 2 later run\(s\) failed$/,
    );
    assert.equal(
      bkp(history([2, 'ERROR'], [1, 'ERROR'])),
      'no successful backup: all 2 backup runs in the DRS history failed',
    );
    assert.equal(bkp(history()), 'no backup has ever run (the DRS backup history is empty)');
  });

  it('never passes an answer that is not a DRS history (the old log listing, an error)', () => {
    assert.match(bkp('2025-11-21-02-00-00_b_cucm-pub_ucm_ccmdb.log\ndrfMaster.log') ?? '', /^cannot judge/);
  });
});

describe('parameters a real node may not have are never read as a pass', () => {
  const params = (...r: [string, string][]): EvidenceResult =>
    rows(...r.map(([paramname, paramvalue]) => ({ paramname, paramvalue })));

  it('CUCM-CSM-01 and CUCM-TLS-02: no row cannot be judged', () => {
    assert.match(check('CUCM-CSM-01').evaluate({ parameters: params() }) ?? '', /^cannot judge/);
    assert.equal(
      check('CUCM-CSM-01').evaluate({ parameters: params(['ClusterSecurityMode', '1']) }),
      undefined,
    );
    assert.match(check('CUCM-TLS-02').evaluate({ parameters: params() }) ?? '', /^cannot judge/);
  });

  it('CUCM-LOG-02: a node without a CdrEnabled row has the documented default, False', () => {
    const evaluate = (p: EvidenceResult) =>
      check('CUCM-LOG-02').evaluate({ callManagers: twoNodes, parameters: p });
    assert.equal(evaluate(params(['CdrEnabled', 'T'], ['CdrEnabled', 'T'])), undefined);
    assert.match(
      evaluate(params(['CdrEnabled', 'T'])) ?? '',
      /read on 1 of 2 .*default CDR Enabled Flag, False/,
    );
    assert.match(
      evaluate(params(['CdrEnabled', 'T'], ['CdrEnabled', 'F'])) ?? '',
      /^CDRs disabled on 1 of 2/,
    );
  });

  it('CUCM-TOLL-03: a node without a row cannot be judged', () => {
    assert.match(
      check('CUCM-TOLL-03').evaluate({ callManagers: twoNodes, parameters: params() }) ?? '',
      /^cannot judge: BlockOffNetToOffNetTransfer read on 0 of 2 .*cannot be judged/,
    );
  });

  it('CUCM-SIPT-02: reads destinations through sipdevice, the join public scripts run on real clusters', () => {
    const sql = JSON.stringify(E.sipTrunkDestinations.args);
    assert.match(sql, /from siptrunkdestination std inner join sipdevice sd on std\.fksipdevice = sd\.pkid/);
    // siptrunkdestination has no fkdevice column on a real node: the trunk is sipdevice.fkdevice.
    assert.doesNotMatch(sql, /select fkdevice/);
    assert.equal(check('CUCM-SIPT-02').unverified, undefined);
  });

  it('CUCM-LOG-01: judged from the Cisco Audit Event Service alone, never from an undocumented parameter', () => {
    const services = (line: string): EvidenceResult => cli(`${line}\nCisco Tomcat[STARTED]`);
    const log = check('CUCM-LOG-01');
    assert.deepEqual(log.evidence, [E.serviceStatus, E.services]);
    assert.ok(!(AUDITED_PARAMETERS as readonly string[]).includes('AuditLogEnabled'));
    assert.equal(log.evaluate({ services: services('Cisco Audit Event Service[STARTED]') }), undefined);
    // A line printed with a space before the state (as platform services are) is the same service.
    assert.equal(log.evaluate({ services: services('Cisco Audit Event Service [STARTED]') }), undefined);
    assert.match(
      log.evaluate({ services: services('Cisco Audit Event Service[STOPPED]  Service Not Activated') }) ?? '',
      /not written: Cisco Audit Event Service\[STOPPED\]/,
    );
    assert.match(log.evaluate({ services: services('Cisco DRF Local[STARTED]') }) ?? '', /not listed/);
    assert.match(log.evaluate({ services: cli('') }) ?? '', /^cannot judge/);
  });
});

describe('CUCM-CERT-01 and CUCM-CERT-02 on the lines a real node prints', () => {
  const NAMES = [
    'tomcat/tomcat.pem',
    'tomcat-ECDSA/tomcat-ECDSA.pem',
    'CallManager/CallManager.pem',
    'CAPF/CAPF.pem',
    'TVS/TVS.pem',
    'ipsec/ipsec.pem',
    'ITLRecovery/ITLRecovery.pem',
  ];
  /** `show cert own` of a node in the US Pacific zone: the CLI prints dates in the node's own zone. */
  const certOwn = (daysLeft: number): string => {
    const to = new Date(Date.now() + daysLeft * DAY);
    const s = to.toUTCString();
    const date = `${s.slice(0, 3)} ${s.slice(8, 11)} ${String(to.getUTCDate()).padStart(2, '0')} ${to.toISOString().slice(11, 19)} PDT ${to.getUTCFullYear()}`;
    return [
      '[',
      '  Version: V3',
      '  Validity From: Tue Mar 31 02:19:31 PDT 2020',
      `           To:   ${date}`,
      ']',
    ].join('\r\n');
  };
  // The checks judge the list and the validity dates as cucm_cert_list parses them.
  const all = (days: number, tomcatDays = days): Record<string, EvidenceResult> => ({
    certList: certEvidence(
      NAMES.map((n) => `${n}: Self-signed certificate generated by system`).join('\r\n'),
      Object.fromEntries(NAMES.map((n) => [n, certOwn(n.startsWith('tomcat/') ? tomcatDays : days)])),
    ),
  });

  it('reads the end date whatever the time zone the node prints', () => {
    assert.equal(check('CUCM-CERT-01').evaluate(all(400)), undefined);
    assert.match(
      check('CUCM-CERT-01').evaluate(all(400, 10)) ?? '',
      /^tomcat\/tomcat\.pem expires in (9|10) days$/,
    );
  });

  it('judges the one-line-per-certificate list of show cert list own', () => {
    const list = (tomcat: string): EvidenceResult =>
      certEvidence(
        [
          `tomcat/tomcat.pem: ${tomcat}`,
          'tomcat-ECDSA/tomcat-ECDSA.pem: Self-signed certificate generated by system',
          'ipsec/ipsec.pem: Self-signed certificate generated by system',
        ].join('\r\n'),
        {},
      );
    assert.match(
      check('CUCM-CERT-02').evaluate({ certList: list('Self-signed certificate generated by system') }) ?? '',
      /tomcat\/tomcat\.pem: Self-signed certificate generated by system/,
    );
    assert.equal(
      check('CUCM-CERT-02').evaluate({ certList: list('Certificate Signed by Corp Issuing CA') }),
      undefined,
    );
  });
});

describe('the original checks cite their sources', () => {
  it('finds a privileged application user through any group carrying the AXL role, never by a group named after it', () => {
    const privileged = {
      appUsers: rows(
        { pkid: 'a1', name: 'axladmin', isstandard: 'f' },
        { pkid: 'a2', name: 'reporter', isstandard: 'f' },
      ),
      groups: rows(
        { pkid: 'g1', name: 'Standard CCM Super Users' },
        { pkid: 'g2', name: 'AXL API Users' },
        { pkid: 'g3', name: 'Standard CTI Enabled' },
      ),
      appUserGroups: rows(
        { fkapplicationuser: 'a1', fkdirgroup: 'g2' },
        { fkapplicationuser: 'a2', fkdirgroup: 'g3' },
      ),
      appUserPasswords: rows(
        { fkapplicationuser: 'a1', doesnotexpire: 't' },
        { fkapplicationuser: 'a2', doesnotexpire: 't' },
      ),
      roleGroups: rows(
        { rolename: 'Standard AXL API Access', fkdirgroup: 'g1', groupname: 'Standard CCM Super Users' },
        { rolename: 'Standard AXL API Access', fkdirgroup: 'g2', groupname: 'AXL API Users' },
      ),
    };
    assert.equal(check('CUCM-PRIV-02').evaluate(privileged), 'passwords never expire for axladmin');
    assert.match(
      String(check('CUCM-PRIV-02').evaluate({ ...privileged, roleGroups: rows() })),
      /^cannot judge: no access control group carries the role Standard AXL API Access/,
    );
  });

  it('each has a reference or says which name no source confirms, with http(s) URLs only', () => {
    for (const c of CUCM_CHECKLIST.checks.filter(
      (x) => !/^CUCM-(PHONE-0[3-9]|LDAP|SSO|SNMP|OS-0[4-9]|FIPS-02|PRIV-0[3-9])/.test(x.id),
    )) {
      assert.ok((c.references?.length ?? 0) > 0 || c.unverified, c.id);
      for (const r of c.references ?? []) {
        assert.match(r.url, /^https?:\/\//, c.id);
        assert.ok(r.document && r.release && r.section, c.id);
      }
    }
  });

  it('uses no name the reviewer doubted without saying so', () => {
    assert.match(check('CUCM-TLS-02').unverified ?? '', /values of TLSCipherPreference/);
    assert.equal(check('CUCM-LOG-01').unverified, undefined);
    const sql = JSON.stringify(CUCM_CHECKLIST.checks.map((c) => c.evidence));
    assert.doesNotMatch(sql, /authorizationrequired|tksecuritymode|fkprocessnode/);
  });
});

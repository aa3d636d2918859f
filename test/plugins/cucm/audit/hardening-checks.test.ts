// The CUCM hardening checks' conditions on answers in the shapes the tools return them: the common
// phone profiles' XML, getLdapAuthentication's nested servers (one or several), the
// CLI answers; each condition both ways, and a cut or unrecognised answer never read as a pass.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PROJECT_ROOT } from '../../../../kernel/paths.ts';
import { allowlisted } from '../../../../kernel/rbac/policy.ts';
import { profileSchema } from '../../../../kernel/rbac/profile-schema.ts';
import type { Check, EvidenceResult } from '../../../../plugins/_shared/audit/checklist.ts';
import { ACCESS_CHECKS } from '../../../../plugins/cucm/audit/checks-access.ts';
import { ENDPOINT_CHECKS } from '../../../../plugins/cucm/audit/checks-endpoints.ts';
import { PLATFORM_CHECKS, snmpUsers } from '../../../../plugins/cucm/audit/checks-platform.ts';
import { EH } from '../../../../plugins/cucm/audit/evidence-hardening.ts';

const ALL = [...ENDPOINT_CHECKS, ...ACCESS_CHECKS, ...PLATFORM_CHECKS];
const check = (id: string): Check => {
  const c = ALL.find((x) => x.id === id);
  assert.ok(c, id);
  return c;
};
const rows = (r: Record<string, unknown>[], complete = true): EvidenceResult => ({
  ok: true,
  data: { operation: 'executeSQLQuery', rows: r, complete },
});
const out = (output: string): EvidenceResult => ({ ok: true, data: { output } });
const result = (r: unknown): EvidenceResult => ({ ok: true, data: { result: r, complete: true } });

const HARD_XML =
  '<vendorConfig><pcPort>1</pcPort><settingsAccess>0</settingsAccess><garp>1</garp><webAccess>1</webAccess><spanToPCPort>1</spanToPCPort></vendorConfig>';
describe('the CUCM hardening checks', () => {
  it('judge the common phone profiles from their XML table, one query, never a column device lacks', () => {
    // The profile XML lives in commonphoneconfigxml (joined by fkcommonphoneconfig), as public scripts
    // read it on real clusters; device has no xml column, so no per-phone count query is made.
    const sql = JSON.stringify(EH.commonPhoneProfiles.args);
    assert.match(
      sql,
      /from commonphoneconfig c inner join commonphoneconfigxml x on x\.fkcommonphoneconfig = c\.pkid/,
    );
    assert.doesNotMatch(JSON.stringify(ENDPOINT_CHECKS.map((c) => c.evidence)), /from device/);
    for (const c of ENDPOINT_CHECKS) assert.deepEqual(c.evidence, [EH.commonPhoneProfiles], c.id);
    const profiles = rows([{ name: 'Standard Common Phone Profile', xml: HARD_XML }]);
    for (const c of ENDPOINT_CHECKS)
      assert.equal(c.evaluate({ commonPhoneProfiles: profiles }), undefined, c.id);
    const openProfile = rows([
      { name: 'Lobby', xml: HARD_XML.replace('<garp>1</garp>', '<garp>0</garp>') },
      { name: 'Standard Common Phone Profile', xml: HARD_XML },
    ]);
    assert.equal(
      check('CUCM-PHONE-07').evaluate({ commonPhoneProfiles: openProfile }),
      'gratuitous ARP accepted on common phone profile Lobby',
    );
    // Only its own setting: the Lobby profile's GARP is no web-access finding.
    assert.equal(check('CUCM-PHONE-03').evaluate({ commonPhoneProfiles: openProfile }), undefined);
    const web = rows([{ name: 'Lobby', xml: HARD_XML.replace('<webAccess>1<', '<webAccess>0<') }]);
    assert.equal(
      check('CUCM-PHONE-03').evaluate({ commonPhoneProfiles: web }),
      'web access enabled on common phone profile Lobby',
    );
    // Settings Access restricted (2) is hardened; enabled (1) is the finding.
    const restricted = rows([
      { name: 'P', xml: HARD_XML.replace('<settingsAccess>0<', '<settingsAccess>2<') },
    ]);
    assert.equal(check('CUCM-PHONE-04').evaluate({ commonPhoneProfiles: restricted }), undefined);
    // A cut answer is reported, never passed.
    assert.match(
      String(check('CUCM-PHONE-05').evaluate({ commonPhoneProfiles: rows([], false) })),
      /incomplete/,
    );
    // The scope is stated: phone-specific overrides are not read.
    for (const c of ENDPOINT_CHECKS) assert.match(c.condition, /phone-specific overrides are not read/, c.id);
  });

  it('find LDAP authentication without TLS, with one server or several', () => {
    const ldap = check('CUCM-LDAP-01');
    const answer = (auth: Record<string, unknown>): EvidenceResult =>
      result({ return: { ldapAuthentication: auth } });
    assert.equal(ldap.evaluate({ ldapAuthentication: answer({ authenticateEndUsers: 'false' }) }), undefined);
    const one = { hostName: 'dc1', ldapPortNumber: '389', sslEnabled: 'false' };
    assert.equal(
      ldap.evaluate({
        ldapAuthentication: answer({ authenticateEndUsers: 'true', servers: { server: one } }),
      }),
      'end users authenticate over LDAP without TLS to dc1:389',
    );
    const tls = [
      { hostName: 'dc1', ldapPortNumber: '636', sslEnabled: 'true' },
      { hostName: 'dc2', ldapPortNumber: '636', sslEnabled: 'true' },
    ];
    assert.equal(
      ldap.evaluate({
        ldapAuthentication: answer({ authenticateEndUsers: 'true', servers: { server: tls } }),
      }),
      undefined,
    );
    assert.match(
      String(ldap.evaluate({ ldapAuthentication: answer({ authenticateEndUsers: 'true' }) })),
      /names no server/,
    );
    assert.match(String(ldap.evaluate({ ldapAuthentication: result({ unexpected: 1 }) })), /unrecognised/);

    const dir = check('CUCM-LDAP-02');
    assert.equal(
      dir.evaluate({
        ldapDirectoryServers: rows([{ name: 'AD', hostname: 'dc1', portnumber: '636', sslenabled: 't' }]),
      }),
      undefined,
    );
    assert.equal(
      dir.evaluate({
        ldapDirectoryServers: rows([{ name: 'AD', hostname: 'dc1', portnumber: '389', sslenabled: 'f' }]),
      }),
      'directory synchronised without TLS: AD -> dc1:389',
    );
  });

  it('read SSO, Enhanced Security Mode and the idle timeouts, and report an answer they cannot read', () => {
    const sso = check('CUCM-SSO-01');
    assert.equal(
      sso.evaluate({ sso: out('SSO Status: SAML SSO Enabled\nRecovery URL Status = enabled') }),
      undefined,
    );
    assert.equal(sso.evaluate({ sso: out('SSO Status: Disabled') }), 'SAML SSO status: Disabled');
    assert.match(String(sso.evaluate({ sso: out('Executed command unsuccessfully') })), /unrecognised/);

    const esm = check('CUCM-FIPS-02');
    const fips = out('The system is operating in FIPS mode. Self test status:');
    assert.equal(esm.evaluate({ fips, esm: out('EnhancedSecurityMode is enabled') }), undefined);
    assert.equal(
      esm.evaluate({ fips, esm: out('EnhancedSecurityMode is disabled') }),
      'Enhanced Security Mode is disabled (node in FIPS mode)',
    );
    assert.match(String(esm.evaluate({ fips, esm: out('') })), /unrecognised/);
    // The CLI reference's wording of the answer.
    assert.equal(
      esm.evaluate({ fips, esm: out('The system is operating in EnhancedSecurityMode') }),
      undefined,
    );
    assert.equal(
      esm.evaluate({
        fips: out('The system is operating in NON-FIPS Mode'),
        esm: out('The system is operating in non-EnhancedSecurityMode'),
      }),
      'Enhanced Security Mode is disabled (node in NON-FIPS mode)',
    );

    const web = check('CUCM-OS-04');
    const cli = check('CUCM-OS-05');
    // The platform's wording of the current value (the set command's example in the Finesse 12.6(2) guide).
    const current = (m: number): string =>
      `The current session-timeout used for web sessions and applications is ${m} minutes.`;
    assert.equal(web.evaluate({ webTimeout: out(current(30)) }), undefined);
    assert.equal(web.evaluate({ webTimeout: out('webapp session timeout: 30 minutes') }), undefined);
    assert.equal(
      web.evaluate({ webTimeout: out(current(480)) }),
      'web application sessions end after 480 idle minutes',
    );
    assert.equal(cli.evaluate({ cliTimeout: out('CLI session timeout: 15 minutes') }), undefined);
    assert.match(
      String(cli.evaluate({ cliTimeout: out('CLI session timeout: 99999 minutes') })),
      /99999 idle minutes/,
    );
    assert.match(String(cli.evaluate({ cliTimeout: out('no such command') })), /unrecognised/);
  });

  it('count SNMP communities without quoting them, and judge SNMPv3 protocols', () => {
    const communities = check('CUCM-SNMP-01');
    const listed =
      '1)\nCommunity String = s3cr3t-ro\nAccess Privileges = ReadOnly\n\n2)\nCommunity String = public\n';
    const finding = String(communities.evaluate({ snmpCommunities: out(listed) }));
    assert.match(finding, /^2 SNMP v1\/v2c community string/);
    assert.doesNotMatch(finding, /s3cr3t|public/);
    assert.equal(
      communities.evaluate({ snmpCommunities: out('There are no community strings configured.') }),
      undefined,
    );
    assert.doesNotMatch(
      String(communities.evaluate({ snmpCommunities: out('odd answer naming s3cr3t-ro') })),
      /s3cr3t/,
    );

    const users = check('CUCM-SNMP-02');
    const v3 = (auth: string, priv: string): string =>
      `1)\nUsername = nms\nAuthentication Protocol = ${auth}\nPrivacy Protocol = ${priv}\n`;
    assert.deepEqual(snmpUsers(v3('SHA', 'AES128')), [{ name: 'nms', auth: 'SHA', priv: 'AES128' }]);
    assert.equal(users.evaluate({ snmpUsers: out(v3('SHA', 'AES128')) }), undefined);
    assert.equal(
      users.evaluate({ snmpUsers: out(v3('MD5', 'None')) }),
      'SNMPv3 users: nms (authentication MD5, privacy None)',
    );
    assert.match(String(users.evaluate({ snmpUsers: out(v3('SHA', 'DES')) })), /privacy DES/);
    assert.equal(users.evaluate({ snmpUsers: out('There are no v3 users configured.') }), undefined);
  });

  it('name the holders of the CTI and AXL roles through any group that carries them, built-in accounts aside', () => {
    // Roles, not groups: Standard CCM Super Users carries the AXL role, a custom group may carry either.
    const roleGroups = rows([
      {
        rolename: 'Standard CTI Allow Control of All Devices',
        fkdirgroup: 'g1',
        groupname: 'Standard CTI Allow Control of All Devices',
      },
      {
        rolename: 'Standard CTI Allow Control of all Devices',
        fkdirgroup: 'g3',
        groupname: 'Recording Integration',
      },
      { rolename: 'Standard AXL API Access', fkdirgroup: 'g2', groupname: 'Standard CCM Super Users' },
      { rolename: 'Standard AXL API Access', fkdirgroup: 'g4', groupname: 'AXL API Users' },
    ]);
    const appUsers = rows([
      { pkid: 'a1', name: 'CCMQRTSysUser', isstandard: 't' },
      { pkid: 'a2', name: 'svc-recorder', isstandard: 'f' },
      { pkid: 'a3', name: 'axladmin', isstandard: 'f' },
    ]);
    const none = {
      roleGroups,
      endUserHolders: rows([]),
      appUsers,
      appUserGroups: rows([
        { fkapplicationuser: 'a1', fkdirgroup: 'g1' },
        { fkapplicationuser: 'a3', fkdirgroup: 'g4' },
      ]),
    };
    assert.equal(check('CUCM-PRIV-03').evaluate(none), undefined);
    // Application users are the integrations' accounts AXL is for: axladmin is no finding.
    assert.equal(check('CUCM-PRIV-04').evaluate(none), undefined);
    const some = {
      ...none,
      endUserHolders: rows([
        {
          rolename: 'Standard CTI Allow Control of All Devices',
          groupname: 'Standard CTI Allow Control of All Devices',
          userid: 'rjones',
        },
        { rolename: 'Standard AXL API Access', groupname: 'Standard CCM Super Users', userid: 'admin.jdoe' },
        { rolename: 'Standard AXL API Access', groupname: 'AXL API Users', userid: 'mlee' },
        { rolename: 'Standard AXL API Access', groupname: 'Standard CCM Super Users', userid: 'mlee' },
      ]),
      appUserGroups: rows([
        { fkapplicationuser: 'a1', fkdirgroup: 'g1' },
        { fkapplicationuser: 'a2', fkdirgroup: 'g3' },
        { fkapplicationuser: 'a3', fkdirgroup: 'g4' },
      ]),
    };
    assert.equal(
      check('CUCM-PRIV-03').evaluate(some),
      'Standard CTI Allow Control of All Devices: end user rjones (through Standard CTI Allow Control of All Devices), application user svc-recorder (through Recording Integration)',
    );
    assert.equal(
      check('CUCM-PRIV-04').evaluate(some),
      'end users with AXL access: admin.jdoe (through Standard CCM Super Users), mlee (through AXL API Users, Standard CCM Super Users)',
    );
  });

  it('judge no holder when no group carries the role (a name the node spells otherwise), and no cut answer', () => {
    const empty = {
      roleGroups: rows([]),
      endUserHolders: rows([]),
      appUsers: rows([]),
      appUserGroups: rows([]),
    };
    for (const id of ['CUCM-PRIV-03', 'CUCM-PRIV-04'])
      assert.match(
        String(check(id).evaluate(empty)),
        /^cannot judge: no access control group carries the role/,
        id,
      );
    const cut = { ...empty, endUserHolders: rows([], false) };
    assert.match(String(check('CUCM-PRIV-04').evaluate(cut)), /^cannot judge: .*incomplete/);
  });

  it('read the holders through the role tables, never by a group name', () => {
    const sql = JSON.stringify([EH.roleGroups.args, EH.endUserHolders.args]);
    assert.match(
      sql,
      /from functionroledirgroupmap rg inner join functionrole r on rg\.fkfunctionrole = r\.pkid/,
    );
    assert.match(sql, /inner join functionroledirgroupmap rg on rg\.fkdirgroup = g\.pkid/);
    assert.doesNotMatch(sql, /lower\(g\.name\)/);
  });

  it('cite a source for every check and say why where a name is unverified', () => {
    for (const c of ALL) {
      assert.ok((c.references ?? []).length > 0, `${c.id} cites nothing`);
      for (const r of c.references ?? []) assert.match(r.url, /^https:\/\//, c.id);
    }
    // Confirmed by the AXL 15 schema alone.
    assert.equal(check('CUCM-LDAP-01').unverified, undefined);
    // Its enabled line is the one Cisco's SSO note shows.
    assert.equal(check('CUCM-SSO-01').unverified, undefined);
  });

  it('are allowed to the read-only profiles as status and list commands only, never their changing forms', () => {
    for (const name of ['auditor', 'operator']) {
      const profile = profileSchema.parse(
        JSON.parse(readFileSync(join(PROJECT_ROOT, 'profiles', '_default', `${name}.json`), 'utf8')),
      );
      for (const c of [
        'utils EnhancedSecurityMode status',
        'utils sso status',
        'utils snmp config 1/2c community-string list',
        'utils snmp config 3 user list',
        'show webapp session timeout',
        'show cli session timeout',
      ])
        assert.ok(allowlisted(profile, 'ssh', c), `${name}: ${c}`);
      for (const c of [
        'utils EnhancedSecurityMode disable',
        'utils sso disable',
        'utils sso recovery-url enable',
        'utils snmp config 1/2c community-string add',
        'utils snmp config 1/2c community-string delete',
        'utils snmp config 3 user update',
        'set webapp session timeout 600',
        'set cli session timeout 99999',
        'utils snmp config 1/2c community-string list; utils system restart',
      ])
        assert.ok(!allowlisted(profile, 'ssh', c), `${name} may run ${c}`);
    }
  });
});

// The change table (plugins/_shared/changes/): every AXL 15.0 operation lands on a row of its own (none on
// the unknown fallback), known operations get the class the table's justification gives, and CUPI, the VOS
// CLI and Control Center actions are classed from the same rows, unknown ones destructive.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { PROJECT_ROOT } from '../../../../kernel/paths.ts';
import { profileSchema } from '../../../../kernel/rbac/profile-schema.ts';
import { CHANGE_CLASSES, type ChangeClass } from '../../../../kernel/sdk/index.ts';
import { AXL_OPERATION_RULES, AXL_PREFIX_RULES } from '../../../../plugins/_shared/changes/axl-table.ts';
import { CLI_RULES } from '../../../../plugins/_shared/changes/cli-table.ts';
import { CUPI_METHOD_RULES, CUPI_PATH_RULES } from '../../../../plugins/_shared/changes/cupi-table.ts';
import { SERVICE_CONTROL_RULES } from '../../../../plugins/_shared/changes/service-table.ts';
import {
  classifyAxl,
  classifyCli,
  classifyCupi,
  classifyServiceControl,
} from '../../../../plugins/_shared/changes/classify.ts';
import { realAxlOperations } from '../../../helpers/axl-fixture-operations.ts';

const KNOWN_AXL: Record<string, ChangeClass> = {
  getPhone: 'read',
  listPhone: 'read',
  listChange: 'read',
  executeSQLQuery: 'read',
  executeSQLQueryInactive: 'read',
  addPhone: 'change',
  updateLine: 'change',
  assignPresenceUser: 'change',
  doDeviceLogin: 'change',
  doDeviceLogout: 'change',
  doChangeDNDStatus: 'change',
  doAuthenticateUser: 'change',
  doSmartLicenseRegister: 'change',
  removePhone: 'destructive',
  removeRoutePartition: 'destructive',
  unassignPresenceUser: 'destructive',
  applyPhone: 'destructive',
  applyDevicePool: 'destructive',
  resetPhone: 'destructive',
  restartSipTrunk: 'destructive',
  resetEnterpriseParameters: 'destructive',
  doDeviceReset: 'destructive',
  doLdapSync: 'destructive',
  doEnterpriseParametersReset: 'destructive',
  doServiceParametersReset: 'destructive',
  doSmartLicenseDeRegister: 'destructive',
  lockPhone: 'destructive',
  wipePhone: 'destructive',
  executeSQLUpdate: 'destructive',
};

describe('AXL operations', () => {
  it('classes the known operations as the table justifies', () => {
    for (const [op, cls] of Object.entries(KNOWN_AXL)) assert.equal(classifyAxl(op).class, cls, op);
  });

  it('treats an operation it does not know as destructive, never read', () => {
    for (const op of ['doSomethingNew', 'executeSmdbMaintenance', 'purgePhone', 'get', 'getphone', 'X', ''])
      assert.deepEqual(
        [op, classifyAxl(op).class, classifyAxl(op).rule],
        [op, 'destructive', 'unknown operation'],
      );
    // The prefix must be followed by the object's name: a lower-case run is not a known verb.
    assert.equal(classifyAxl('listenPhone').class, 'destructive');
  });

  it('classes an update that sets a password, PIN or digest credential as destructive', () => {
    assert.equal(classifyAxl('updateUser', { userid: 'jdoe', pin: '12345' }).class, 'destructive');
    assert.equal(classifyAxl('updateAppUser', { name: 'x', password: 'p' }).class, 'destructive');
    assert.equal(classifyAxl('updateUser', { userid: 'jdoe', telephoneNumber: '1' }).class, 'change');
    // An add creates the object: removing it puts the configuration back, secret or not.
    assert.equal(classifyAxl('addUser', { userid: 'jdoe', password: 'p' }).class, 'change');
  });

  it('gives every operation of the real AXL 15.0 schema a class from a row of its own', (t) => {
    const ops = realAxlOperations();
    if (!ops) {
      t.skip(
        '../shared/fixtures/cucm-axl-schema/15.0 is absent (fresh clone); the known operations are checked above',
      );
      return;
    }
    assert.ok(ops.length > 1000, `${ops.length} operations read from the schema`);
    const counts: Record<string, number> = Object.fromEntries(CHANGE_CLASSES.map((c) => [c, 0]));
    const unknown: string[] = [];
    for (const op of ops) {
      const c = classifyAxl(op);
      counts[c.class] = (counts[c.class] ?? 0) + 1;
      if (c.rule === 'unknown operation') unknown.push(op);
    }
    t.diagnostic(`AXL 15.0: ${ops.length} operations: ${JSON.stringify(counts)}`);
    assert.deepEqual(unknown, [], 'every 15.0 operation is named by a row, none falls to the fallback');
    for (const op of Object.keys(AXL_OPERATION_RULES))
      assert.ok(ops.includes(op), `${op} is listed by name but is no 15.0 operation`);
    for (const op of Object.keys(KNOWN_AXL)) assert.ok(ops.includes(op), `${op} is a 15.0 operation`);
    for (const op of ops) {
      if (/^(get|list)[A-Z]/.test(op)) assert.equal(classifyAxl(op).class, 'read', op);
      if (/^(remove|reset|restart|apply|wipe)[A-Z]/.test(op))
        assert.equal(classifyAxl(op).class, 'destructive', op);
    }
    assert.equal(counts.read, ops.filter((o) => /^(get|list|executeSQLQuery)/.test(o)).length);
  });
});

describe('CUPI requests', () => {
  it('classes by method, with the secret paths destructive', () => {
    const cases: [string, string, ChangeClass][] = [
      ['GET', '/vmrest/users', 'read'],
      ['HEAD', '/vmrest/users', 'read'],
      ['POST', '/vmrest/users', 'change'],
      ['PUT', '/vmrest/users/0f1e2d3c-aaaa-bbbb-cccc-000000000001', 'change'],
      ['PUT', '/vmrest/handlers/callhandlers/abc/greetings/Standard', 'change'],
      ['DELETE', '/vmrest/distributionlists/abc', 'destructive'],
      ['PUT', '/vmrest/users/abc/credential/pin', 'destructive'],
      ['PUT', '/vmrest/users/abc/credential/password', 'destructive'],
      ['POST', '/vmrest/users/abc/credential/pin', 'destructive'],
      ['GET', '/vmrest/users/abc/credential/pin', 'read'],
      ['PATCH', '/vmrest/users/abc', 'destructive'],
      ['OPTIONS', '/vmrest/users', 'destructive'],
    ];
    for (const [method, path, cls] of cases)
      assert.equal(classifyCupi(method, path).class, cls, `${method} ${path}`);
  });
});

describe('VOS CLI commands', () => {
  it('classes each family by its longest matching row', () => {
    const cases: [string, ChangeClass][] = [
      ['show version active', 'read'],
      ['SHOW version active', 'read'],
      ['show cert list own', 'read'],
      ['file list activelog /', 'read'],
      ['file view activelog syslog/messages', 'read'],
      ['file get activelog syslog/messages', 'change'],
      ['file delete activelog syslog/old', 'destructive'],
      ['utils service list', 'read'],
      ['utils service start Cisco Tftp', 'change'],
      ['utils service stop Cisco Tftp', 'destructive'],
      ['utils service restart Cisco CallManager', 'destructive'],
      ['utils system restart', 'destructive'],
      ['utils system shutdown', 'destructive'],
      ['utils system switch-version', 'destructive'],
      ['utils dbreplication runtimestate', 'read'],
      ['utils dbreplication reset all', 'destructive'],
      ['utils disaster_recovery history backup', 'read'],
      ['utils fips enable', 'destructive'],
      ['utils ctl set-cluster mixed-mode', 'destructive'],
      ['set trace enable Detailed cdps', 'change'],
      ['set trace disable cdps', 'change'],
      ['set network ip eth0 10.0.0.1 255.255.255.0 10.0.0.254', 'destructive'],
      ['set password user admin', 'destructive'],
      ['unset network dns options', 'destructive'],
      ['delete account agent', 'destructive'],
      ['run sql select name from device', 'read'],
      ['run sql select name from device; delete from device', 'destructive'],
      ['run sql update device set name = 1', 'destructive'],
      ['run cuc dbquery unitydirdb select alias from vw_user', 'read'],
      ['run cuc dbquery unitydirdb delete from tbl_user', 'destructive'],
      ['license file get', 'destructive'],
      ['showx', 'destructive'],
      ['reboot', 'destructive'],
    ];
    for (const [command, cls] of cases) assert.equal(classifyCli(command).class, cls, command);
  });
});

describe('the read-only profile against the table', () => {
  it("classes every command and AXL pattern the auditor's allowlists permit as read", () => {
    const auditor = profileSchema.parse(
      JSON.parse(readFileSync(join(PROJECT_ROOT, 'profiles/_default/auditor.json'), 'utf8')),
    );
    // A trailing " *" or "*" stands for the rest of the line: the words before it pick the row.
    const stem = (glob: string): string => glob.replace(/ ?\*$/, '');
    for (const glob of auditor.allowlists.ssh.allow)
      assert.equal(classifyCli(stem(glob)).class, 'read', `ssh ${glob}`);
    for (const glob of auditor.allowlists.axl.allow)
      assert.equal(
        classifyAxl(glob.endsWith('*') ? `${stem(glob)}Phone` : glob).class,
        'read',
        `axl ${glob}`,
      );
    for (const rule of auditor.allowlists.cupi.allow)
      for (const method of rule.methods) assert.equal(classifyCupi(method, rule.path).class, 'read');
  });
});

describe('Control Center actions', () => {
  it('classes start as a change and stop and restart as destructive', () => {
    assert.equal(classifyServiceControl('start').class, 'change');
    assert.equal(classifyServiceControl('stop').class, 'destructive');
    assert.equal(classifyServiceControl('restart').class, 'destructive');
  });
});

describe('docs/change-classes.md', () => {
  it('lists every row of the table with its class and why', () => {
    const doc = readFileSync(join(PROJECT_ROOT, 'docs', 'change-classes.md'), 'utf8');
    const rows = [
      ...Object.entries(AXL_PREFIX_RULES).map(([p, r]) => [`\`${p}*\``, r] as const),
      ...Object.entries(AXL_OPERATION_RULES).map(([op, r]) => [`\`${op}\``, r] as const),
      ...CLI_RULES.map((r) => [`\`${r.prefix}\``, r] as const),
      ...Object.entries(CUPI_METHOD_RULES).map(([m, r]) => [`| ${m} `, r] as const),
      ...CUPI_PATH_RULES.map((r) => [r.methods.join(', '), r] as const),
      ...Object.entries(SERVICE_CONTROL_RULES).map(([a, r]) => [`| ${a} `, r] as const),
    ];
    for (const [name, rule] of rows) {
      const line = doc.split('\n').find((l) => l.startsWith('|') && l.includes(name) && l.includes(rule.why));
      assert.ok(line, `${name}: no row with its why`);
      assert.ok(line.includes(`\`${rule.class}\``), `${name}: the row says ${rule.class}`);
    }
  });
});

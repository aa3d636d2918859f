// Independent clients against the lab, as a CUCM engineer would drive a real cluster: python zeep with
// the real AXL 15.0 and RisPort70 WSDLs (strict validation, HTTPS verified against the node's own
// certificate) and paramiko for the VOS CLI (keyboard-interactive, host key checked, a paged command).
// Optional: skips, saying why, where no python3 has zeep and paramiko (CI installs them from Debian).
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fixture } from '../lab/helpers.ts';
import { pythonAgainstLab, pythonWith } from '../helpers/python-lab.ts';

interface Results {
  axl: {
    wsdl: string;
    version: string;
    listPhone: number;
    getPhone: { name: string; model: string; lines: number };
    addLine: string;
    lineCycle: string;
    sqlJoin: true | string;
    sqlRows: number;
  };
  ris: { totalDevicesFound: number; devices: number };
  cli: {
    hostKey: string;
    version: string;
    clusterNodes: string[];
    pagedServices: number;
    services: number;
    unknown: string;
  };
}

const found = pythonWith('python clients', ['zeep', 'paramiko', 'requests']);

describe('python zeep and paramiko against the lab', { skip: found.skip }, () => {
  const run = pythonAgainstLab<Results>(found, {
    script: 'lab_session.py',
    prefix: 'ucmcp-python-lab-',
    args: () => {
      const axlWsdl = fixture('cucm-axl-schema', '15.0', 'AXLAPI.wsdl');
      const risWsdl = fixture('cucm-ris-schema', 'RISService70.wsdl');
      if (!axlWsdl)
        console.log('# the real AXL 15.0 WSDL is absent (../shared/fixtures): using the lab toolkit WSDL');
      if (!risWsdl)
        console.log('# the real RisPort70 WSDL is absent (../shared/fixtures): using the one the lab serves');
      return [axlWsdl ?? '', risWsdl ?? ''];
    },
    timeoutMs: 240_000,
    maxBufferBytes: 16 * 1024 * 1024,
  });

  it('zeep reads and writes through AXL with strict validation and the node certificate pinned', () => {
    const { lab, results } = run;
    const phones = lab.state.cucm.db.table('device').rows.filter((d) => d.name?.startsWith('SEP'));
    assert.match(results.axl.version, /^15\.0\./);
    assert.equal(results.axl.listPhone, phones.length);
    assert.equal(results.axl.getPhone.name, 'SEP0A1B2C3D4E01');
    assert.equal(results.axl.getPhone.lines, 1);
    assert.match(results.axl.addLine, /^\{[0-9A-F-]{36}\}$/);
    assert.equal(results.axl.lineCycle, 'ok');
    assert.equal(results.axl.sqlJoin, true, `executeSQLQuery with a join: ${String(results.axl.sqlJoin)}`);
    assert.equal(results.axl.sqlRows, phones.length);
  });

  it('zeep selects devices through RisPort70', () => {
    const { lab, results } = run;
    const records = [...lab.state.cucm.ris.registrations.values()].flat();
    assert.ok(results.ris.devices > 0);
    assert.ok(results.ris.devices <= records.length);
    assert.equal(results.ris.totalDevicesFound, results.ris.devices);
  });

  it('paramiko logs in to the VOS CLI, checks the host key, and reads a paged command whole', () => {
    const { lab, results } = run;
    const cucm = lab.info.nodes.find((n) => n.product === 'cucm');
    assert.equal(results.cli.hostKey, cucm?.sshHostKeyFingerprint);
    assert.equal(results.cli.version, cucm?.version);
    assert.deepEqual([...results.cli.clusterNodes].sort(), [...lab.state.cucm.ris.nodes, 'imp-pub'].sort());
    assert.ok(
      results.cli.services > 23,
      'more services than a 24-row terminal shows: the pager was answered',
    );
    assert.equal(results.cli.pagedServices, results.cli.services);
    assert.equal(results.cli.unknown.trim(), 'Executed command unsuccessfully\nNo valid command entered');
  });
});

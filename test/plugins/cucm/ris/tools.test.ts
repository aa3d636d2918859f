// The two RIS tools' declarations and handlers, called directly with a real vault against the lab (the
// MCP end-to-end tests go through a client; these pin the input schemas and the handler wiring).
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AuditLog } from '../../../../kernel/audit/audit-log.ts';
import { statePaths } from '../../../../kernel/paths.ts';
import type { ToolContext } from '../../../../kernel/sdk/index.ts';
import { z } from '../../../../kernel/sdk/index.ts';
import type { ClientVault } from '../../../../kernel/vault/index.ts';
import { Vault } from '../../../../kernel/vault/index.ts';
import type { RisService } from '../../../../plugins/cucm/ris/ris-service.ts';
import downloadRisToolkit from '../../../../plugins/cucm/tools/download-ris-toolkit.ts';
import risportQuery from '../../../../plugins/cucm/tools/risport-query.ts';
import { startRisLab } from './helpers.ts';
import { labTlsPin } from '../../../../lab/index.ts';
import type { RisLab } from './helpers.ts';

const HOST = 'cucm-pub.ris.example';

describe('RIS tool declarations', () => {
  it('declare name, access and service as the spec says', () => {
    assert.equal(risportQuery.name, 'risport_query');
    assert.equal(risportQuery.service, 'ris');
    assert.ok('allowlist' in risportQuery.access && risportQuery.access.allowlist === 'ris');
    assert.equal(risportQuery.access.subject({ operation: 'selectCmDeviceExt' }), 'selectCmDeviceExt');
    assert.equal(risportQuery.annotations.readOnlyHint, true);
    assert.equal(downloadRisToolkit.name, 'download_ris_toolkit');
    assert.deepEqual(downloadRisToolkit.access, { minProfile: 'admin' });
    // A WSDL request reaches the node's RIS service: the client's RIS window counts it.
    assert.equal(downloadRisToolkit.service, 'ris');
    assert.ok('host' in risportQuery.input && 'host' in downloadRisToolkit.input, 'the kernel audits host');
  });

  it('fill RisPort defaults and refuse values the node would reject', () => {
    const schema = z.object(risportQuery.input);
    assert.deepEqual(schema.parse({ host: 'h' }), {
      host: 'h',
      kind: 'devices',
      operation: 'selectCmDeviceExt',
      device_class: 'Any',
      model: 255,
      status: 'Any',
      select_by: 'Name',
      select_items: ['*'],
      node_name: '',
      protocol: 'Any',
      download_status: 'Any',
      max_returned_devices: 1000,
      max_devices: 2000,
      max_requests: 5,
      cti_class: 'Provider',
      cti_status: 'Any',
      select_app_by: 'AppId',
      app_items: [],
      dev_names: [],
      dir_numbers: [],
    });
    for (const bad of [
      { status: 'Registred' },
      { operation: 'selectCtiItem' },
      { select_items: [] },
      { max_requests: 16 },
      { max_returned_devices: 2001 },
      { select_by: 'MAC' },
      { kind: 'registrations' },
      { kind: 'cti', cti_class: 'Application' },
      { kind: 'cti', select_app_by: 'Name' },
    ])
      assert.equal(schema.safeParse({ host: 'h', ...bad }).success, false, JSON.stringify(bad));
  });
});

describe('RIS tool handlers with a real vault', () => {
  let r: RisLab;
  let dir: string;
  let audit: AuditLog;
  let view: ClientVault;
  let ris: RisService;
  const quiet = {
    info: () => undefined,
    warn: () => undefined,
    error: () => undefined,
    debug: () => undefined,
  };
  before(async () => {
    r = await startRisLab({ extraPhones: 30, risMaxDevicesPerAnswer: 10, risRateLimitPerMinute: 1000 });
    dir = mkdtempSync(join(tmpdir(), 'ris-tools-'));
    audit = new AuditLog({ path: join(dir, 'audit.log'), maxBytes: 10_000_000, maxFiles: 1 });
    view = Vault.open(statePaths(join(dir, 'state')), audit, quiet).forClient('alice');
    await view.store('cucm', 'axl', HOST, {
      username: r.node.username,
      password: r.node.password,
      options: { address: `127.0.0.1:${r.node.port}`, ...labTlsPin(r.lab.info, r.cucm) },
    });
    ris = r.service();
  });
  after(async () => {
    await r.stop();
    await audit.close();
    rmSync(dir, { recursive: true, force: true });
  });

  // Only what these handlers use of the context.
  const ctx = (): ToolContext<never> =>
    ({
      vault: view,
      shared: { ris },
      signal: new AbortController().signal,
      log: quiet,
    }) as unknown as ToolContext<never>;

  it('downloads with the stored AXL credential, then queries through the same login', async () => {
    const query = z
      .object(risportQuery.input)
      .parse({ host: HOST, select_items: ['SEPF0*'], max_requests: 2 });
    await assert.rejects(risportQuery.handler(query, ctx()), /run cucm_download_ris_toolkit/);
    const dl = await downloadRisToolkit.handler({ host: HOST }, ctx());
    assert.deepEqual((dl.structured as { operations: string[] }).operations, [
      'selectCmDevice',
      'selectCmDeviceExt',
      'selectCtiItem',
    ]);
    const first = (await risportQuery.handler(query, ctx())).structured as Record<string, unknown>;
    assert.equal(first.host, HOST);
    assert.equal(first.complete, false);
    assert.equal(first.stopped_because, 'max_requests');
    assert.equal(first.records_read, 20);
    const rest = (await risportQuery.handler({ ...query, state_info: first.state_info as string }, ctx()))
      .structured as { complete: boolean; devices: { name: string }[] };
    assert.equal(rest.complete, true);
    assert.equal(
      new Set([...(first.devices as { name: string }[]), ...rest.devices].map((d) => d.name)).size,
      30,
      'all 30 bulk phones across the two calls',
    );
  });
});

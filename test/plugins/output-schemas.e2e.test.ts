// Every tool's published outputSchema against what the tool really returns: each shipped tool called
// through real MCP clients against the lab (success paths, and the alternative result shapes where a
// tool has several), every structuredContent checked with a JSON Schema validator. The SDK v1 client
// checks it as well once it has listed the tools (it also checks isError results, which is why every
// published schema admits the error envelope), and the v2 client (2026-07-28) does the same for results.
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/server/validators/ajv';
import { exportDefinitions } from '../../kernel/plugins/definitions.ts';
import { sampleChange } from '../helpers/change-entry.ts';
import { connectModern, type ModernClient } from '../helpers/mcp-client-v2.ts';
import { startupToken } from '../helpers/mcp-client.ts';
import { labCredential, startProductStack, type ProductStack, type Role } from '../helpers/product-stack.ts';
import { freePort } from '../helpers/server-process.ts';
import { loadShippedPlugins } from '../helpers/shipped-plugins.ts';

type Schema = Record<string, unknown> & { anyOf?: Record<string, unknown>[]; $defs?: unknown };

const ajv = new AjvJsonSchemaValidator();

/** One branch of a published schema (success or error), with the definitions its references need. */
function branch(schema: Schema, i: 0 | 1): Record<string, unknown> {
  const b = schema.anyOf?.[i];
  assert.ok(b, 'the published schema is anyOf [result, error]');
  return { type: 'object', ...b, ...(schema.$defs ? { $defs: schema.$defs } : {}) };
}

function validate(schema: Record<string, unknown>, value: unknown, what: string): void {
  const r = ajv.getValidator(schema as never)(value);
  assert.ok(r.valid, `${what}: ${r.errorMessage ?? ''}\n${JSON.stringify(value).slice(0, 600)}`);
}

describe('tool output schemas', () => {
  it('every shipped tool declares an output schema: the result and the error envelope', async () => {
    const { tools } = exportDefinitions(await loadShippedPlugins());
    assert.ok(tools.length >= 60);
    for (const t of tools) {
      const schema = t.outputSchema as Schema | undefined;
      assert.ok(schema, `${t.name} declares no output schema`);
      assert.equal(schema.type, 'object', t.name);
      assert.equal(schema.anyOf?.length, 2, t.name);
      validate(schema, { error: 'NOT_FOUND', message: 'x' }, `${t.name}: the error envelope`);
    }
  });
});

describe('tool results against their output schemas, through real clients and the lab', () => {
  let s: ProductStack;
  let modern: ModernClient;
  const schemas = new Map<string, Schema>();
  /** Tools whose successful result was checked, with the shapes seen (the keys of the result). */
  const checked = new Map<string, Set<string>>();

  before(async () => {
    // cucm_cdr_get receives the file the lab's node pushes by SFTP on a loopback port.
    const cdrPort = await freePort();
    s = await startProductStack({
      lab: { cdrPushPort: cdrPort },
      env: { CDR_SFTP_ADDRESS: '127.0.0.1', CDR_SFTP_PORT: String(cdrPort) },
    });
    for (const role of ['admin', 'operator', 'auditor'] as const) {
      // Listing makes the v1 client check every later result against the schemas itself.
      const { tools } = await s.mcp[role].client.listTools();
      for (const t of tools) if (t.outputSchema) schemas.set(t.name, t.outputSchema as Schema);
    }
    modern = await connectModern(s.k, startupToken(s.k.stateDir, 'auditor1'));
    await modern.client.listTools();
  });

  after(async () => {
    await modern?.close();
    await s?.stop();
  });

  /** Calls a tool that must succeed; checks its structuredContent against the success branch. */
  async function ok(role: Role, tool: string, args: Record<string, unknown> = {}) {
    const r = await s.mcp[role].call(tool, args);
    assert.equal(r.isError, undefined, `${tool}: ${JSON.stringify(r.structuredContent ?? r.content)}`);
    const schema = schemas.get(tool);
    assert.ok(schema, `${tool} has no outputSchema in tools/list`);
    assert.ok(r.structuredContent, `${tool} returned no structuredContent`);
    validate(branch(schema, 0), r.structuredContent, tool);
    const shapes = checked.get(tool) ?? new Set<string>();
    shapes.add(Object.keys(r.structuredContent).sort().join(','));
    checked.set(tool, shapes);
    return r.structuredContent;
  }

  /** Calls a tool that must fail in-band; checks the error envelope against the error branch. */
  async function fails(role: Role, tool: string, args: Record<string, unknown> = {}) {
    const r = await s.mcp[role].call(tool, args);
    assert.equal(r.isError, true, tool);
    const schema = schemas.get(tool);
    assert.ok(schema, tool);
    validate(branch(schema, 1), r.structuredContent, `${tool} (error)`);
    validate(schema, r.structuredContent, `${tool} (error, whole schema)`);
    return r.structuredContent as { error: string };
  }

  /** A change through its write tool (previewed, then confirmed by plan), then its undo (preview, then plan). */
  /** A destructive change: its dry run's answer, then the change confirmed by the dry run's plan_id. */
  async function confirmed(tool: string, args: Record<string, unknown>) {
    const dry = await ok('admin', tool, { ...args, dry_run: true });
    return ok('admin', tool, { ...args, plan_id: dry.plan_id });
  }

  async function changeAndUndo(product: string, tool: string, args: Record<string, unknown>) {
    const dry = await ok('admin', tool, { ...args, dry_run: true });
    const done = await ok('admin', tool, { ...args, plan_id: dry.plan_id });
    const preview = await ok('admin', `${product}_undo_change`, { change_id: done.change_id });
    await ok('admin', `${product}_undo_change`, { change_id: done.change_id, plan_id: preview.plan_id });
  }

  it('infra and common tools, with both shapes of common_read_report', async () => {
    for (const t of [
      'infra_init_session',
      'infra_get_my_permissions',
      'infra_list_available_products',
      'infra_health',
      'infra_metrics',
      'infra_list_prompts',
      'infra_list_docs',
    ])
      await ok('admin', t);
    await ok('admin', 'infra_server_status');
    await ok('admin', 'infra_server_status', { check_integrity: true });
    await ok('auditor', 'infra_init_session');
    await ok('admin', 'infra_get_prompt', { name: 'cucm_security_audit', arguments: { host: 'cucm-a' } });
    const docs = (await ok('admin', 'infra_list_docs')) as { docs: { uri: string; template: boolean }[] };
    const doc = docs.docs.find((d) => !d.template);
    assert.ok(doc);
    await ok('admin', 'infra_get_doc', { name: doc.uri });
    await fails('admin', 'infra_get_doc', { name: 'no-such-doc' });

    await ok('admin', 'common_write_report', {
      name: 'contract.md',
      content: '# One\n\ntext\n',
      mode: 'create',
    });
    await ok('admin', 'common_write_report', {
      name: 'contract.md',
      content: '# One\n\nagain\n',
      mode: 'resume',
    });
    await ok('admin', 'common_read_report');
    await ok('admin', 'common_read_report', { name: 'contract.md' });
    await ok('admin', 'common_export_report_pdf', { name: 'contract.md' });
    await fails('admin', 'common_write_report', { name: 'contract.md', content: 'x', mode: 'create' });
    assert.equal(checked.get('common_read_report')?.size, 2, 'the list and a chunk');
  });

  it('CUCM: credentials, AXL (rows, a result, a cut answer), RIS, the CLI and a phone', async () => {
    const cucm = s.node('cucm');
    const phone = s.node('phone');
    const host = { host: cucm.name };
    await fails('admin', 'cucm_get_version', host); // no credentials yet
    await ok('admin', 'cucm_store_credentials', labCredential(s.lab, cucm, 'axl'));
    await ok('admin', 'cucm_update_credentials', labCredential(s.lab, cucm, 'axl'));
    await ok('admin', 'cucm_os_store_credentials', labCredential(s.lab, cucm, 'os'));
    await ok('admin', 'cucm_os_update_credentials', labCredential(s.lab, cucm, 'os'));
    await ok('admin', 'cucm_phone_store_credentials', labCredential(s.lab, phone, 'phone'));
    await ok('admin', 'cucm_phone_update_credentials', labCredential(s.lab, phone, 'phone'));
    await ok('admin', 'cucm_download_axl_toolkit', host);
    await ok('admin', 'cucm_check_connectivity', host); // the SSH key awaits a decision
    await ok('admin', 'cucm_os_trust_fingerprint', {
      ...host,
      fingerprint: cucm.sshHostKeyFingerprint,
      action: 'trust',
    });
    await ok('admin', 'cucm_check_connectivity', host);
    await ok('admin', 'cucm_list_credentials');
    // First contact without a pin: refused until the admin trusts the node's certificate.
    const { cert_pem: _cucmPin, ...cucmBare } = labCredential(s.lab, cucm, 'axl');
    await ok('admin', 'cucm_update_credentials', cucmBare);
    await fails('admin', 'cucm_get_version', host);
    await ok('admin', 'cucm_trust_certificate', {
      ...host,
      fingerprint: cucm.certFingerprint,
      action: 'trust',
    });
    await ok('admin', 'cucm_get_version', host);
    await ok('admin', 'cucm_list_axl_operations', { pattern: 'Phone' });
    await ok('admin', 'cucm_list_axl_operations', { operation: 'getPhone' });
    await ok('admin', 'cucm_axl_call', { ...host, operation: 'getCCMVersion' });
    await ok('admin', 'cucm_axl_call', {
      ...host,
      operation: 'executeSQLQuery',
      args: { sql: 'select name from device' },
    });
    const cut = await ok('admin', 'cucm_axl_call', {
      ...host,
      operation: 'getPhone',
      args: { name: s.node('phone').name },
      max_bytes: 512,
    });
    if (typeof cut.cursor === 'string')
      await ok('admin', 'cucm_axl_call', {
        ...host,
        operation: 'getPhone',
        args: { name: s.node('phone').name },
        max_bytes: 512,
        cursor: cut.cursor,
      });
    assert.ok((checked.get('cucm_axl_call')?.size ?? 0) >= 3, 'rows, a result and a cut answer');
    await ok('admin', 'cucm_download_ris_toolkit', host);
    await ok('admin', 'cucm_risport_query', host);
    await ok('admin', 'cucm_os_run_command', { ...host, command: 'show myself' });
    await ok('admin', 'cucm_drf_status', host);
    await ok('admin', 'cucm_trace_level', { ...host, task: 'cdps' });
    await ok('admin', 'cucm_cert_list', { ...host, all_nodes: true, trust: true });
    await ok('admin', 'cucm_perfmon_list_counters', { ...host, object: 'Memory' });
    await ok('admin', 'cucm_perfmon_query', { ...host, object: 'Cisco CallManager' });
    // Two hours ago: an hour the lab's CDR repository has written whole.
    const cdr = await ok('admin', 'cucm_cdr_files', {
      ...host,
      from: new Date(Math.floor(Date.now() / 3_600_000) * 3_600_000 - 7_200_000).toISOString(),
    });
    await ok('admin', 'cucm_cdr_get', {
      ...host,
      files: [(cdr.files as { name: string }[])[0]?.name],
    });
    const cucmLogs = await ok('admin', 'cucm_log_list', { ...host, services: ['Cisco CallManager'] });
    await ok('admin', 'cucm_log_collect', {
      ...host,
      files: [(cucmLogs.nodes as { files: { path: string }[] }[])[0]?.files[0]?.path ?? ''],
    });
    // The change journal's tools, over a record the kernel's own journal service wrote (the write tools
    // record theirs from issue 23's next round on).
    for (const product of ['cucm', 'imp', 'cuc'] as const) {
      await s.k.kernel.mcp.changes.append(sampleChange({ host: `${product}-pub.lab` }), {
        client: 'admin1',
        callId: `schema-${product}`,
        tool: `${product}_axl_call`,
        product,
      });
      const history = await ok('admin', `${product}_change_history`, {});
      assert.equal((history.changes as unknown[]).length, 1);
    }
    await changeAndUndo('cucm', 'cucm_axl_call', {
      ...host,
      operation: 'updatePhone',
      args: { name: 'SEP0A1B2C3D4E02', description: 'schema check' },
    });
    await ok('admin', 'cucm_service_status', { ...host, with_specifications: true });
    await confirmed('cucm_service_control', { ...host, action: 'restart', services: ['Cisco Tftp'] });
    await ok('admin', 'cucm_phone_screenshot', { host: phone.name });
    await ok('admin', 'cucm_phone_delete_credentials', { host: phone.name });
    await ok('admin', 'cucm_os_delete_credentials', host);
    await ok('admin', 'cucm_delete_credentials', host);
    await fails('admin', 'cucm_delete_credentials', host);
  });

  it('IM&P and Unity Connection', async () => {
    const imp = s.node('imp');
    const ih = { host: imp.name };
    await ok('admin', 'imp_store_credentials', labCredential(s.lab, imp, 'axl'));
    await ok('admin', 'imp_update_credentials', labCredential(s.lab, imp, 'axl'));
    await ok('admin', 'imp_os_store_credentials', labCredential(s.lab, imp, 'os'));
    await ok('admin', 'imp_os_update_credentials', labCredential(s.lab, imp, 'os'));
    await ok('admin', 'imp_download_axl_toolkit', ih);
    await ok('admin', 'imp_check_connectivity', ih);
    await ok('admin', 'imp_os_trust_fingerprint', {
      ...ih,
      fingerprint: imp.sshHostKeyFingerprint,
      action: 'trust',
    });
    await ok('admin', 'imp_list_credentials');
    // First contact without a pin: refused until the admin trusts the node's certificate.
    const { cert_pem: _impPin, ...impBare } = labCredential(s.lab, imp, 'axl');
    await ok('admin', 'imp_update_credentials', impBare);
    await fails('admin', 'imp_get_version', ih);
    await ok('admin', 'imp_trust_certificate', {
      ...ih,
      fingerprint: imp.certFingerprint,
      action: 'trust',
    });
    await ok('admin', 'imp_get_version', ih);
    await ok('admin', 'imp_list_axl_operations', {});
    await ok('admin', 'imp_axl_call', { ...ih, operation: 'getCCMVersion' });
    await ok('admin', 'imp_os_run_command', { ...ih, command: 'show status' });
    await ok('admin', 'imp_drf_status', ih);
    await ok('admin', 'imp_trace_level', ih);
    await ok('admin', 'imp_cert_list', ih);
    await ok('admin', 'imp_perfmon_list_counters', ih);
    await ok('admin', 'imp_perfmon_query', { ...ih, object: 'Cisco XCP CM' });
    const impLogs = await ok('admin', 'imp_log_list', { ...ih, services: ['Cisco XCP Router'] });
    await ok('admin', 'imp_log_collect', {
      ...ih,
      files: [(impLogs.nodes as { files: { path: string }[] }[])[0]?.files[0]?.path ?? ''],
    });
    await ok('admin', 'imp_service_status', ih);
    await changeAndUndo('imp', 'imp_service_control', {
      ...ih,
      action: 'stop',
      services: ['Cisco Presence Engine'],
    });
    await confirmed('imp_service_control', { ...ih, action: 'restart', services: ['Cisco Presence Engine'] });
    await ok('admin', 'imp_os_delete_credentials', ih);
    await ok('admin', 'imp_delete_credentials', ih);

    const cuc = s.node('cuc');
    const ch = { host: cuc.name };
    await ok('admin', 'cuc_store_credentials', labCredential(s.lab, cuc, 'cupi'));
    await ok('admin', 'cuc_update_credentials', labCredential(s.lab, cuc, 'cupi'));
    await ok('admin', 'cuc_os_store_credentials', labCredential(s.lab, cuc, 'os'));
    await ok('admin', 'cuc_os_update_credentials', labCredential(s.lab, cuc, 'os'));
    await ok('admin', 'cuc_check_connectivity', ch);
    await ok('admin', 'cuc_os_trust_fingerprint', {
      ...ch,
      fingerprint: cuc.sshHostKeyFingerprint,
      action: 'trust',
    });
    await ok('admin', 'cuc_list_credentials');
    // First contact without a pin: refused until the admin trusts the node's certificate.
    const { cert_pem: _cucPin, ...cucBare } = labCredential(s.lab, cuc, 'cupi');
    await ok('admin', 'cuc_update_credentials', cucBare);
    await fails('admin', 'cuc_get_version', ch);
    await ok('admin', 'cuc_trust_certificate', {
      ...ch,
      fingerprint: cuc.certFingerprint,
      action: 'trust',
    });
    await ok('admin', 'cuc_get_version', ch);
    await ok('admin', 'cuc_cupi_list', { ...ch, resource: 'users' });
    await ok('admin', 'cuc_cupi_call', { ...ch, method: 'GET', path: '/vmrest/users' });
    await changeAndUndo('cuc', 'cuc_cupi_call', {
      ...ch,
      method: 'POST',
      path: '/vmrest/distributionlists',
      body: { Alias: 'schema-dl', DisplayName: 'Schema' },
    });
    await ok('admin', 'cuc_os_run_command', { ...ch, command: 'show status' });
    await ok('admin', 'cuc_drf_status', ch);
    await ok('admin', 'cuc_trace_level', ch);
    await ok('admin', 'cuc_cert_list', ch);
    await ok('admin', 'cuc_perfmon_list_counters', ch);
    await ok('admin', 'cuc_perfmon_query', { ...ch, object: 'Memory' });
    await ok('admin', 'cuc_log_list', ch);
    const cucLogs = await ok('admin', 'cuc_log_list', { ...ch, services: ['Connection Notifier'] });
    await ok('admin', 'cuc_log_collect', {
      ...ch,
      files: [(cucLogs.nodes as { files: { path: string }[] }[])[0]?.files[0]?.path ?? ''],
    });
    await ok('admin', 'cuc_service_status', ch);
    await confirmed('cuc_service_control', { ...ch, action: 'restart', services: ['Connection Mixer'] });
    await ok('admin', 'cuc_os_delete_credentials', ch);
    await ok('admin', 'cuc_delete_credentials', ch);
  });

  it('the 2026-07-28 client checks results against the same schemas', async () => {
    // The v2 client throws when a result does not match the listed outputSchema.
    for (const [name, args] of [
      ['infra_init_session', {}],
      ['infra_health', {}],
      ['cucm_list_credentials', {}],
      ['cucm_get_version', { host: s.node('cucm').name }],
      ['cuc_cupi_list', { host: s.node('cuc').name, resource: 'users' }],
    ] as const) {
      const r = await modern.client.callTool({ name, arguments: args });
      assert.equal(r.isError, undefined, `${name}: ${JSON.stringify(r.structuredContent)}`);
      validate(branch(schemas.get(name) as Schema, 0), r.structuredContent, `${name} (2026-07-28)`);
    }
  });

  it('every tool was checked, and the kernel found no result off its schema', () => {
    const all = [...schemas.keys()].sort();
    assert.equal(all.length, 98);
    assert.deepEqual(
      all.filter((t) => !checked.has(t)),
      [],
      'tools whose result was never checked',
    );
    const appLog = readFileSync(join(s.k.stateDir, 'logs', 'app.log'), 'utf8');
    assert.doesNotMatch(appLog, /does not match its output schema|declares no output schema/);
  });
});

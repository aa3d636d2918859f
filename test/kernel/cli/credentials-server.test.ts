// `ucmcp credentials store` beside a running server: the client's next tool call against the lab uses
// what the operator stored (no restart, no reconnect), and the password shows up in no MCP message, no
// log and no audit record: only sealed in the client's vault.
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { allBytesUnder } from '../vault/vault-fixture.ts';
import { startProductStack, type ProductStack } from '../../helpers/product-stack.ts';
import { runUcmcp } from '../../helpers/ucmcp-process.ts';

const LAB_AXL_PASSWORD = 'Cli-Lab-Canary-93be';

describe('ucmcp credentials with the server running', () => {
  let s: ProductStack;
  before(async () => {
    s = await startProductStack({ lab: { passwords: { axl: LAB_AXL_PASSWORD } }, seedVaultFor: [] });
  });
  after(() => s?.stop());

  it('stores a credential the running server uses at the next call, the password nowhere in clear', async () => {
    const cucm = s.node('cucm');
    const https = cucm.ports.https as number;
    const before = await s.fails('admin', 'cucm_get_version', { host: cucm.name });
    assert.equal(before.error, 'CredentialError', before.message);

    // The lab's nodes present self-signed certificates, as real ones do: the operator pins the node's own.
    const certFile = join(s.k.stateDir, 'cucm-pub.pem');
    writeFileSync(certFile, cucm.certPem ?? '');
    const mark = s.mark();
    const stored = await runUcmcp(
      [
        'credentials',
        'store',
        '--client',
        'admin1',
        '--product',
        'cucm',
        '--host',
        cucm.name,
        '--username',
        cucm.credentials.axl?.user ?? '',
        '--address',
        `${cucm.host}:${https}`,
        '--cert',
        certFile,
        '--password-stdin',
      ],
      {
        env: {
          STATE_DIR: s.k.stateDir,
          AUTH_CLIENTS: 'admin1:admin:cucm+imp+cuc',
          SERVER_HOST: '127.0.0.1',
          SERVER_PORT: new URL(s.k.url).port,
        },
        stdin: `${LAB_AXL_PASSWORD}\n`,
      },
    );
    assert.equal(stored.code, 0, stored.stderr);

    // The toolkit download logs in to the node too; then the version, through AXL.
    await s.ok('admin', 'cucm_download_axl_toolkit', { host: cucm.name });
    const version = await s.mcp.admin.call('cucm_get_version', { host: cucm.name });
    assert.equal(version.isError, undefined, JSON.stringify(version.content));
    const message = JSON.stringify(version);
    assert.match(message, /\d+\.\d+/);

    const audit = s.auditSince(mark).filter((r) => r.event === 'CREDENTIAL');
    assert.deepEqual(
      audit.map((r) => [r.operation, r.status, r.client, r.product, r.kind, r.cluster, r.by]),
      [['store', 'OK', 'admin1', 'cucm', 'axl', cucm.name.toLowerCase(), 'operator']],
    );
    const seen = Buffer.concat([
      allBytesUnder(s.k.stateDir),
      Buffer.from(stored.stdout + stored.stderr + message + JSON.stringify(before)),
    ]);
    assert.equal(seen.includes(LAB_AXL_PASSWORD), false, 'the password is somewhere in clear');
  });

  it('loses no change when the server stores for the same client while the command runs', async () => {
    const cli = runUcmcp(
      [
        'credentials',
        'store',
        '--client',
        'admin1',
        '--product',
        'cucm',
        '--kind',
        'os',
        '--host',
        'cucm-os-1',
      ].concat(['-u', 'osadmin', '--address', '127.0.0.1:22', '--password-stdin']),
      {
        env: {
          STATE_DIR: s.k.stateDir,
          AUTH_CLIENTS: 'admin1:admin:cucm+imp+cuc',
          SERVER_HOST: '127.0.0.1',
          SERVER_PORT: new URL(s.k.url).port,
        },
        stdin: 'Os-Canary-5e1\n',
      },
    );
    let done = false;
    void cli.finally(() => (done = true));
    // Tool stores one after the other for as long as the command runs (its key derivation included).
    const stored: string[] = [];
    for (let n = 1; !done; n++) {
      const host = `10.9.0.${n}`;
      await s.ok('admin', 'cucm_phone_store_credentials', { host, username: 'jsmith', password: 'Ph-1' });
      stored.push(host);
    }
    const r = await cli;
    assert.equal(r.code, 0, r.stderr);
    const list = await s.ok('admin', 'cucm_list_credentials');
    const hosts = (list.credentials as { kind: string; host: string }[]).map((c) => `${c.kind} ${c.host}`);
    assert.ok(hosts.includes('os cucm-os-1'), 'the operator’s store was lost');
    for (const host of stored)
      assert.ok(hosts.includes(`phone ${host}`), `the tool's store of ${host} was lost`);
    assert.ok(stored.length > 1, 'the tool stores ran beside the command');
  });
});

// Secret hygiene (issue 10): canary secrets are put everywhere a secret can live (managed-node
// passwords of every product and service through the tools, stored and updated; the lab accepts them;
// wrong ones too, so that logins fail; a password pasted into a host name; passwords inside AXL and CUPI
// request bodies; the SFTP backup password, encrypted in .env, and plaintext secrets in unknown .env
// keys; wrong OAuth client secrets, codes, verifiers, refresh and bearer tokens), the product is worked
// through success and failure, a restart, a backup with its SFTP copy and a support bundle, and then
// everything observable is searched for the canaries in any encoding and for the installation's real
// secrets (keys, JWTs, client secrets, the vault master secret, the license): both log files and their
// archives, /metrics, every HTTP answer, every tool result, every MCP message (progress included), the
// console of the server and of the CLI, the support bundle and every file of the state directory
// outside the secret stores. The stores themselves may hold a canary only encrypted.
import assert from 'node:assert/strict';
import { createPrivateKey } from 'node:crypto';
import { chmodSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { RequestInit } from 'undici';
import type { Lab, LabNodeInfo } from '../../../lab/index.ts';
import { labNode } from '../../../lab/index.ts';
import { seedVault } from '../../../lab/demo/seed-vault.ts';
import { command as encryptSftpPassword } from '../../../kernel/cli/commands/encrypt-sftp-password.ts';
import { command as showTech } from '../../../kernel/cli/commands/show-tech.ts';
import { command as storeIntegrationCredentials } from '../../../kernel/cli/commands/store-integration-credentials.ts';
import { runCommandWith } from '../../../kernel/cli/dispatch.ts';
import type { EvidenceResult } from '../../../plugins/_shared/audit/checklist.ts';
import { runChecklist } from '../../../plugins/_shared/audit/run-checklist.ts';
import { CUC_CHECKLIST } from '../../../plugins/cuc/audit/checklist.ts';
import { CUCM_CHECKLIST } from '../../../plugins/cucm/audit/checklist.ts';
import { IMP_CHECKLIST } from '../../../plugins/imp/audit/checklist.ts';
import { decryptStream, openArchive } from '../../../kernel/backup/decrypt.ts';
import { forbiddenMaterial } from '../../../kernel/support/leak-scan.ts';
import { operatorSettings } from '../../../kernel/support/settings.ts';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';
import { seedServerKeys } from '../../helpers/keys.ts';
import { connectMcp, startupToken, type ConnectedClient } from '../../helpers/mcp-client.ts';
import { authorizeUrl, basicAuth, codeFlow, submitLogin } from '../../helpers/oauth.ts';
import { labPinArgs } from '../../helpers/product-stack.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';
import { startTestLab } from '../../lab/helpers.ts';
import { startSftpServer, type TestSftpServer } from '../../kernel/backup/sftp-server.ts';
import {
  Canaries,
  encodings,
  filesBelow,
  Observed,
  scanStateDir,
  secretNeedles,
  type Finding,
} from './scan.ts';
import { unzipAll } from '../../helpers/unzip.ts';
import { auditRecords, captureConsole, cliIo, until } from './harness.ts';
import type { Forbidden } from '../../../kernel/support/leak-scan.ts';

type Role = 'admin' | 'operator';
type ToolResult = Awaited<ReturnType<ConnectedClient['call']>>;

const SFTP_USER = 'backup';
const REDIRECT = 'http://127.0.0.1:9/callback';

const C = new Canaries();
// Managed-node passwords the lab accepts, and wrong ones it refuses.
const PW = {
  axl: C.password('axl'),
  os: C.password('os'),
  cupi: C.password('cupi'),
  phone: C.password('phone'),
};
const WRONG = {
  cucmAxl: C.password('cucm-axl-wrong'),
  impAxl: C.password('imp-axl-wrong'),
  cupi: C.password('cupi-wrong'),
  cucmOs: C.password('cucm-os-wrong'),
  cucOs: C.password('cuc-os-wrong'),
  phone: C.password('phone-wrong'),
};
const ARG = {
  hostPaste: C.password('host-paste'),
  addressPaste: C.password('address-paste'),
  axlUserPassword: C.password('axl-user-password'),
  axlUserPin: C.digits('axl-user-pin'),
  axlMissingUserPassword: C.password('axl-missing-user-password'),
  cupiPin: C.digits('cupi-pin'),
  cliPassword: C.password('cli-integration-password'),
  refused: C.password('refused-credential-write'),
};
const ENV = {
  sftp: C.password('sftp'),
  sftpWrong: C.password('sftp-wrong'),
  apiKey: C.token('env-api-key'),
  plainSftp: C.token('env-plain-sftp-password'),
  processToken: C.token('process-env-token'),
};
const OAUTH = {
  badSecret: C.token('oauth-bad-secret-basic'),
  badSecretPost: C.token('oauth-bad-secret-post'),
  badCode: C.token('oauth-bad-code'),
  badVerifier: C.token('oauth-bad-verifier'),
  badRefresh: C.token('oauth-bad-refresh'),
  revokeUnknown: C.token('oauth-revoke-unknown'),
  badBearer: C.token('oauth-bad-bearer'),
  forgedJwt: C.jwt('oauth-forged-jwt'),
  mcpBearer: C.token('mcp-bad-bearer'),
  mcpBody: C.password('mcp-malformed-body'),
  loginSecret: C.token('login-bad-secret'),
  secretAsId: C.token('oauth-secret-as-client-id'),
  secretAsPostedId: C.token('oauth-secret-as-posted-client-id'),
};

function envFile(sftp: TestSftpServer, passwordEnc: string): string {
  return [
    'AUTH_CLIENTS=admin1:admin:cucm+imp+cuc,operator1:operator:cucm+imp+cuc,web1:operator:cucm:' + REDIRECT,
    'AUTH_BCRYPT_COST=4',
    'AUTH_BLACKLIST_THRESHOLD=100000',
    // Every debug and trace line is written, and the logs rotate, so that archives are searched too.
    'LOGGING_LEVEL=trace',
    'LOGGING_ROTATE_SIZE=16384',
    'LOGGING_ROTATE_FILES=50',
    'BACKUP_SFTP_HOST=127.0.0.1',
    `BACKUP_SFTP_PORT=${sftp.port}`,
    `BACKUP_SFTP_USER=${SFTP_USER}`,
    `BACKUP_SFTP_PASSWORD_ENC=${passwordEnc}`,
    `BACKUP_SFTP_HOST_KEY=${sftp.fingerprint}`,
    // Secrets in keys this server does not know: reported by name only.
    `LEGACY_API_KEY=${ENV.apiKey}`,
    `BACKUP_SFTP_PASSWORD=${ENV.plainSftp}`,
    '',
  ].join('\n');
}

// Bounded: a hang anywhere (a node, the server, a cleanup) fails the suite instead of stalling the run.
describe('secret hygiene: no canary and no secret in anything observable', { timeout: 150_000 }, () => {
  const state = tempStateDir('ucmcp-canary-');
  const work = tempStateDir('ucmcp-canary-work-');
  const remote = tempStateDir('ucmcp-canary-sftp-');
  const observed = new Observed(join(work.dir, 'observed'));
  /** Real secrets met on the way that no file holds at the end (revoked tokens, replaced startup tokens). */
  const metSecrets: Forbidden[] = [];
  let lab: Lab;
  let sftp: TestSftpServer;
  let k: TestKernel | undefined;
  let console_: ReturnType<typeof captureConsole>;
  const mcp = {} as Record<Role, ConnectedClient>;
  let progressMessages = 0;

  const node = (product: 'cucm' | 'imp' | 'cuc' | 'phone'): LabNodeInfo => labNode(lab.info, product);
  const cred = (
    n: LabNodeInfo,
    kind: 'axl' | 'os' | 'phone' | 'cupi',
    password: string,
  ): Record<string, unknown> => {
    const p = kind === 'os' ? n.ports.ssh : kind === 'phone' ? n.ports.http : n.ports.https;
    return {
      host: n.name,
      username: n.credentials[kind]?.user,
      password,
      address: `${n.host}:${String(p)}`,
      ...(kind === 'os' ? {} : labPinArgs(lab, n)),
    };
  };

  async function startServer(): Promise<TestKernel> {
    k = await startTestKernel({
      stateDir: state.dir,
      seedKeys: false,
      env: { LOGGING_CONSOLE_ENABLED: '1', VENDOR_API_TOKEN: ENV.processToken },
      license: { products: ['cucm', 'imp', 'cuc'] },
    });
    for (const role of ['admin', 'operator'] as const) {
      const c = await connectMcp(k, startupToken(state.dir, `${role}1`));
      // Every message the server sends this client (results, notifications, progress) is kept.
      const inner = c.transport.onmessage?.bind(c.transport);
      c.transport.onmessage = (message: JSONRPCMessage) => {
        if ((message as { method?: string }).method === 'notifications/progress') progressMessages++;
        observed.add(`MCP message to ${role}1`, message);
        inner?.(message);
      };
      mcp[role] = c;
    }
    return k;
  }

  async function stopServer(): Promise<void> {
    for (const c of Object.values(mcp)) await c.close().catch(() => undefined);
    await k?.stop();
    k = undefined;
  }

  async function call(role: Role, tool: string, args: Record<string, unknown> = {}): Promise<ToolResult> {
    const progress: unknown[] = [];
    const r = (await mcp[role].client.callTool({ name: tool, arguments: args }, undefined, {
      onprogress: (p) => void progress.push(p),
    })) as ToolResult;
    observed.add(`${tool} result (${role}1)`, r);
    if (progress.length > 0) observed.add(`${tool} progress (${role}1)`, progress);
    return r;
  }
  const ok = async (role: Role, tool: string, args: Record<string, unknown> = {}) => {
    const r = await call(role, tool, args);
    assert.notEqual(r.isError, true, `${tool}: ${JSON.stringify(r.structuredContent)}`);
    return r.structuredContent ?? {};
  };
  const fails = async (role: Role, tool: string, args: Record<string, unknown>, code?: RegExp) => {
    const r = await call(role, tool, args);
    assert.equal(r.isError, true, `${tool} should fail: ${JSON.stringify(r.structuredContent)}`);
    const error = String(r.structuredContent?.error);
    if (code) assert.match(error, code, `${tool}: ${JSON.stringify(r.structuredContent)}`);
    return error;
  };

  /**
   * An HTTP exchange with the server; status, headers and body are all kept, except the tokens a token
   * response hands to its caller (that is where they are meant to go).
   */
  async function http(what: string, path: string, init: Parameters<TestKernel['fetch']>[1] = {}) {
    const kk = k as TestKernel;
    const res = await kk.fetch(`${kk.url}${path}`, { redirect: 'manual', ...init });
    const body = await res.text();
    const shown = body.replace(/("(?:access|refresh)_token":)"[^"]*"/g, '$1"(issued)"');
    observed.add(`HTTP ${what}`, {
      status: res.status,
      headers: Object.fromEntries(res.headers),
      body: shown,
    });
    return { status: res.status, body };
  }

  /** Runs encrypt_sftp_password; returns the value for .env (kept as a secret, not as an observation). */
  async function encryptedSftpPassword(password: string): Promise<string> {
    const io = cliIo({ STATE_DIR: state.dir, ENV_FILE: '' }, state.dir, `${password}\n`);
    assert.equal(await runCommandWith(encryptSftpPassword, [], io), 0, io.stderr);
    const value = /^BACKUP_SFTP_PASSWORD_ENC=(\S+)$/m.exec(io.stdout)?.[1];
    assert.ok(value, io.stdout);
    metSecrets.push({ label: 'an encrypted SFTP password', needle: Buffer.from(value) });
    observed.add('CLI encrypt_sftp_password', (io.stdout + io.stderr).replace(value, '(printed)'));
    return value;
  }
  const form = (params: Record<string, string>, headers: Record<string, string> = {}) => ({
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(params).toString(),
  });

  const auditHas = (status: string): boolean =>
    auditRecords(state.dir).some((r) => r.event === 'SERVER' && r.status === status);

  before(async () => {
    console_ = captureConsole();
    sftp = await startSftpServer({ root: remote.dir, user: SFTP_USER, password: ENV.sftp });
    lab = await startTestLab({ passwords: PW });
    seedServerKeys(state.dir);
    // As a careless copy or a restore can leave it: the server must make it private again.
    chmodSync(join(state.dir, 'secrets', 'rsa_private.pem'), 0o644);
    // The first start uploads with a wrong SFTP password (encrypted like the right one will be).
    writeFileSync(join(state.dir, '.env'), envFile(sftp, await encryptedSftpPassword(ENV.sftpWrong)));
    // The operator's vault gets the lab's (canary) credentials before the start, as `npm run demo` does.
    await seedVault(state.dir, ['operator1'], lab.info);
    await startServer();
  });

  after(
    async () => {
      await stopServer().catch(() => undefined);
      console_.restore();
      await lab?.stop();
      await sftp?.close();
      state.cleanup();
      work.cleanup();
      remote.cleanup();
    },
    { timeout: 30_000 },
  );

  it('CUCM: AXL, OS and phone credentials stored wrong, failing, updated, working', async () => {
    const cucm = node('cucm');
    const phone = node('phone');
    await ok('admin', 'cucm_store_credentials', cred(cucm, 'axl', WRONG.cucmAxl));
    await fails('admin', 'cucm_get_version', { host: cucm.name });
    await call('admin', 'cucm_check_connectivity', { host: cucm.name });
    await ok('admin', 'cucm_update_credentials', cred(cucm, 'axl', PW.axl));
    await ok('admin', 'cucm_download_axl_toolkit', { host: cucm.name });
    assert.match(JSON.stringify(await ok('admin', 'cucm_get_version', { host: cucm.name })), /15\.0/);
    // Passwords inside an AXL request body: a write that succeeds, and one the node refuses.
    // A replaced password is destructive: previewed (the dry run's answer is observed too), then confirmed.
    const update = {
      host: cucm.name,
      operation: 'updateUser',
      args: { userid: 'rjones', password: ARG.axlUserPassword, pin: ARG.axlUserPin },
    };
    const dry = await ok('admin', 'cucm_axl_call', { ...update, dry_run: true });
    await ok('admin', 'cucm_axl_call', { ...update, plan_id: dry.plan_id });
    await fails('admin', 'cucm_axl_call', {
      host: cucm.name,
      operation: 'updateUser',
      args: { userid: 'nobody-here', password: ARG.axlMissingUserPassword },
      dry_run: true,
    });
    await ok('admin', 'cucm_download_ris_toolkit', { host: cucm.name });
    await ok('admin', 'cucm_risport_query', { host: cucm.name });

    await ok('admin', 'cucm_os_store_credentials', cred(cucm, 'os', WRONG.cucmOs));
    await ok('admin', 'cucm_check_connectivity', { host: cucm.name });
    await ok('admin', 'cucm_os_trust_fingerprint', {
      host: cucm.name,
      fingerprint: cucm.sshHostKeyFingerprint,
      action: 'trust',
    });
    await fails('admin', 'cucm_os_run_command', { host: cucm.name, command: 'show myself' });
    await ok('admin', 'cucm_os_update_credentials', cred(cucm, 'os', PW.os));
    await ok('admin', 'cucm_os_run_command', { host: cucm.name, command: 'show myself' });
    await ok('admin', 'cucm_check_connectivity', { host: cucm.name });

    await ok('admin', 'cucm_phone_store_credentials', cred(phone, 'phone', WRONG.phone));
    await fails('admin', 'cucm_phone_screenshot', { host: phone.name });
    await ok('admin', 'cucm_phone_update_credentials', cred(phone, 'phone', PW.phone));
    await ok('admin', 'cucm_phone_screenshot', { host: phone.name });

    // A password pasted into the host or the address field is refused, and not repeated anywhere.
    await fails(
      'admin',
      'cucm_store_credentials',
      { ...cred(cucm, 'axl', PW.axl), host: `axladmin:${ARG.hostPaste}@${cucm.name}` },
      /CredentialError|BAD_REQUEST/,
    );
    await fails(
      'admin',
      'cucm_store_credentials',
      {
        ...cred(cucm, 'axl', PW.axl),
        host: 'cucm-paste',
        address: `axladmin:${ARG.addressPaste}@127.0.0.1:1`,
      },
      /BAD_REQUEST/,
    );
    // Refused credential writes: the secret is in the request, never in the answer or a record.
    const refused: [Record<string, unknown>, RegExp][] = [
      [cred(cucm, 'axl', ARG.refused), /CredentialError/], // already stored: use update
      [{ ...cred(cucm, 'axl', ARG.refused), extra: ARG.refused }, /BAD_REQUEST/],
      [{ ...cred(cucm, 'axl', ARG.refused.repeat(40)), host: 'long.example.com' }, /BAD_REQUEST/],
    ];
    for (const [args, code] of refused) await fails('admin', 'cucm_store_credentials', args, code);
    const nowhere = { ...cred(cucm, 'axl', ARG.refused), host: 'nowhere.example.com' };
    await fails('admin', 'cucm_update_credentials', nowhere, /CredentialError/);
    // An unknown tool is a JSON-RPC error (-32602), not a tool result.
    await assert.rejects(call('admin', 'cucm_no_such_tool', { password: ARG.refused }), /-32602.*NOT_FOUND/);
    await ok('admin', 'cucm_list_credentials');
  });

  it('IM&P and Unity Connection: the same, and a PIN through CUPI', async () => {
    const imp = node('imp');
    await ok('admin', 'imp_store_credentials', cred(imp, 'axl', WRONG.impAxl));
    await fails('admin', 'imp_get_version', { host: imp.name });
    await ok('admin', 'imp_update_credentials', cred(imp, 'axl', PW.axl));
    await ok('admin', 'imp_download_axl_toolkit', { host: imp.name });
    await ok('admin', 'imp_get_version', { host: imp.name });
    await ok('admin', 'imp_os_store_credentials', cred(imp, 'os', PW.os));
    await ok('admin', 'imp_check_connectivity', { host: imp.name });
    await ok('admin', 'imp_os_trust_fingerprint', {
      host: imp.name,
      fingerprint: imp.sshHostKeyFingerprint,
      action: 'trust',
    });
    await ok('admin', 'imp_os_run_command', { host: imp.name, command: 'show status' });

    const cuc = node('cuc');
    await ok('admin', 'cuc_store_credentials', cred(cuc, 'cupi', WRONG.cupi));
    await fails('admin', 'cuc_get_version', { host: cuc.name });
    await call('admin', 'cuc_check_connectivity', { host: cuc.name });
    await ok('admin', 'cuc_update_credentials', cred(cuc, 'cupi', PW.cupi));
    await ok('admin', 'cuc_get_version', { host: cuc.name });
    // The node's session cookie is a secret of its own: the server holds it, nobody else may see it.
    assert.ok(lab.state.cuc.sessions.ids.length > 0);
    const users = await ok('admin', 'cuc_cupi_list', { host: cuc.name, resource: 'users' });
    const id = /"ObjectId":"([^"]+)"/.exec(JSON.stringify(users))?.[1];
    assert.ok(id, JSON.stringify(users).slice(0, 300));
    const pin = {
      host: cuc.name,
      method: 'PUT',
      path: `/vmrest/users/${id}/credential/pin`,
      body: { Credentials: ARG.cupiPin },
    };
    const pinPlan = await call('admin', 'cuc_cupi_call', { ...pin, dry_run: true });
    await call('admin', 'cuc_cupi_call', { ...pin, plan_id: pinPlan.structuredContent?.plan_id });
    await ok('admin', 'cuc_os_store_credentials', cred(cuc, 'os', WRONG.cucOs));
    await ok('admin', 'cuc_check_connectivity', { host: cuc.name });
    await ok('admin', 'cuc_os_trust_fingerprint', {
      host: cuc.name,
      fingerprint: cuc.sshHostKeyFingerprint,
      action: 'trust',
    });
    await fails('admin', 'cuc_os_run_command', { host: cuc.name, command: 'show status' });
    await ok('admin', 'cuc_os_update_credentials', cred(cuc, 'os', PW.os));
    await ok('admin', 'cuc_os_run_command', { host: cuc.name, command: 'show status' });

    // The operator works from its seeded vault.
    await ok('operator', 'cucm_get_version', { host: node('cucm').name });
    await ok('operator', 'cuc_os_run_command', { host: cuc.name, command: 'show version active' });
    await ok('admin', 'infra_metrics');
    await ok('admin', 'infra_server_status');
  });

  it('a security audit of each product runs on the canary credentials', async () => {
    const evidence = async (tool: string, args: Record<string, unknown>): Promise<EvidenceResult> => {
      const r = await call('admin', tool, args);
      const sc = r.structuredContent ?? {};
      return r.isError
        ? { ok: false, error: String(sc.error), message: String(sc.message) }
        : { ok: true, data: sc };
    };
    for (const checklist of [CUCM_CHECKLIST, IMP_CHECKLIST, CUC_CHECKLIST]) {
      const run = await runChecklist(checklist, node(checklist.product).name, evidence);
      assert.deepEqual(run.unjudged, [], checklist.product);
      assert.ok(run.findings.length > 0, `${checklist.product}: the weak lab has findings`);
    }
  });

  it('OAuth and HTTP failures carrying canaries; tokens issued, refreshed and revoked', async () => {
    const kk = k as TestKernel;
    const secretOf = (name: string) =>
      readFileSync(join(state.dir, 'clients', name, 'secrets', '.client_secret'), 'utf8').trim();
    const expect = async (what: string, path: string, init: RequestInit, status: number) => {
      const r = await http(what, path, init);
      assert.equal(r.status, status, `${what}: ${r.body}`);
      return r.body;
    };
    const bearer = (t: string) => ({ authorization: `Bearer ${t}` });
    const tokens = (body: string) => JSON.parse(body) as { access_token: string; refresh_token?: string };
    const cc = { grant_type: 'client_credentials' };
    const admin = { authorization: basicAuth('admin1', secretOf('admin1')) };
    const web = { authorization: basicAuth('web1', secretOf('web1')) };

    await expect(
      'token, wrong secret',
      '/token',
      form(cc, { authorization: basicAuth('admin1', OAUTH.badSecret) }),
      401,
    );
    await expect(
      'token, wrong posted secret',
      '/token',
      form({ ...cc, client_id: 'admin1', client_secret: OAUTH.badSecretPost }),
      401,
    );
    await expect(
      'token, a secret given as the client id',
      '/token',
      form(cc, { authorization: basicAuth(OAUTH.secretAsId, 'x') }),
      401,
    );
    await expect(
      'token, a secret posted as client_id',
      '/token',
      form({ ...cc, client_id: OAUTH.secretAsPostedId, client_secret: 'x' }),
      401,
    );
    const code = {
      grant_type: 'authorization_code',
      code: OAUTH.badCode,
      code_verifier: OAUTH.badVerifier,
      redirect_uri: REDIRECT,
    };
    await expect('token, unknown code', '/token', form(code, web), 400);
    await expect(
      'token, unknown refresh token',
      '/token',
      form({ grant_type: 'refresh_token', refresh_token: OAUTH.badRefresh }, web),
      400,
    );

    const access = tokens(await expect('token', '/token', form(cc, admin), 200)).access_token;
    metSecrets.push(...secretNeedles('an OAuth access token', access));
    await expect('status', '/status', { headers: bearer(access) }, 200);
    await expect(
      'revoke, unknown token',
      '/revoke',
      form({ token: OAUTH.revokeUnknown }, bearer(access)),
      200,
    );
    await expect('revoke', '/revoke', form({ token: access }, bearer(access)), 200);
    await expect('status, revoked token', '/status', { headers: bearer(access) }, 401);
    await expect('status, unknown bearer', '/status', { headers: bearer(OAUTH.badBearer) }, 401);
    await expect('status, forged JWT', '/status', { headers: bearer(OAUTH.forgedJwt) }, 401);

    // The authorization-code flow, a refresh (rotating the refresh token), a replay of the old one, a revocation.
    const first = await codeFlow(kk, { name: 'web1', secret: secretOf('web1'), redirectUri: REDIRECT });
    metSecrets.push(...secretNeedles('a web1 access token', first.access_token));
    metSecrets.push(...secretNeedles('a web1 refresh token', first.refresh_token));
    const refresh = (t: string) => form({ grant_type: 'refresh_token', refresh_token: t }, web);
    const second = tokens(await expect('token, refresh', '/token', refresh(first.refresh_token), 200));
    metSecrets.push(...secretNeedles('a refreshed access token', second.access_token));
    metSecrets.push(...secretNeedles('a rotated refresh token', String(second.refresh_token)));
    await expect('token, refresh token replayed', '/token', refresh(first.refresh_token), 400);
    const hint = { token: String(second.refresh_token), token_type_hint: 'refresh_token' };
    await expect(
      'revoke, refresh token',
      '/revoke',
      form(hint, bearer(startupToken(state.dir, 'web1'))),
      200,
    );
    const login = await submitLogin(kk, authorizeUrl(kk, { client_id: 'web1', redirect_uri: REDIRECT }).url, {
      client_id: 'web1',
      client_secret: OAUTH.loginSecret,
    });
    observed.add('HTTP login with a wrong secret', login);
    assert.equal((login.location ?? '').includes('code='), false);

    const rpc = JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: {
        name: 'cucm_store_credentials',
        arguments: { host: 'x', username: 'u', password: OAUTH.mcpBody },
      },
    });
    const json = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
    const mcpPost = (token: string, body: string): RequestInit => ({
      method: 'POST',
      headers: { ...json, ...bearer(token) },
      body,
    });
    await expect('mcp, unknown bearer', '/mcp', mcpPost(OAUTH.mcpBearer, rpc), 401);
    const cut = rpc.slice(0, rpc.indexOf(OAUTH.mcpBody) + 20);
    await expect('mcp, malformed JSON', '/mcp', mcpPost(startupToken(state.dir, 'admin1'), cut), 400);
    await http('metrics', '/metrics');
  });

  it('restart: the CLI stores a password, the SFTP password is re-encrypted, the backup is uploaded', async () => {
    await until('the first backup upload to fail', () => auditHas('BACKUP_UPLOAD_FAILED'));
    for (const name of ['admin1', 'operator1', 'web1'])
      metSecrets.push(
        ...secretNeedles(`the replaced startup token of ${name}`, startupToken(state.dir, name)),
      );
    const oldToken = startupToken(state.dir, 'admin1');
    await stopServer();

    const env = { STATE_DIR: state.dir, ENV_FILE: '', UC_INTEGRATION_PASSWORD: ARG.cliPassword };
    const store = cliIo(env, state.dir);
    const cuc = node('cuc');
    const args = [
      ...['--product', 'cuc', '--kind', 'os', '--host', cuc.name, '--username', 'osadmin'],
      ...['--address', `${cuc.host}:${String(cuc.ports.ssh)}`, '--client', 'operator1', '--yes'],
    ];
    assert.equal(await runCommandWith(storeIntegrationCredentials, args, store), 0, store.stderr);
    observed.add('CLI store_integration_credentials', store.stdout + store.stderr);
    writeFileSync(join(state.dir, '.env'), envFile(sftp, await encryptedSftpPassword(ENV.sftp)));

    await startServer();
    await until('the backup upload', () => auditHas('BACKUP_UPLOADED'));
    assert.ok(
      readdirSync(remote.dir).some((f) => f.endsWith('.tar.gz.enc')),
      'the SFTP copy is there',
    );
    assert.equal(
      (
        await http('status, replaced startup token', '/status', {
          headers: { authorization: `Bearer ${oldToken}` },
        })
      ).status,
      401,
    );
    // The vault opens after the restart; the CLI-stored password is wrong for the node.
    await ok('admin', 'cucm_axl_call', { host: node('cucm').name, operation: 'getCCMVersion', args: {} });
    await ok('admin', 'cucm_os_run_command', { host: node('cucm').name, command: 'show myself' });
    await fails('operator', 'cuc_os_run_command', { host: cuc.name, command: 'show status' });
    await http('metrics after the restart', '/metrics');
  });

  it('a support bundle is made while the server runs', async () => {
    const out = join(work.dir, 'bundle');
    const io = cliIo({ STATE_DIR: state.dir, ENV_FILE: '', VENDOR_API_TOKEN: ENV.processToken }, state.dir);
    assert.equal(await runCommandWith(showTech, ['--output', out], io), 0, io.stderr);
    observed.add('CLI show_tech', io.stdout + io.stderr);
    const zipName = readdirSync(out)[0] ?? '';
    assert.ok(zipName.endsWith('.zip'), zipName);
    assert.deepEqual(readdirSync(out), [zipName], 'nothing else is left in the output directory');
    const zipFile = join(out, zipName);
    observed.add(`support bundle ${zipName}`, readFileSync(zipFile));
    const entries = await unzipAll(zipFile);
    assert.ok(entries.size >= 8, [...entries.keys()].join());
    for (const [entry, bytes] of entries) observed.add(`support bundle entry ${entry}`, bytes);
  });

  it('nothing observable holds a canary or a secret', async () => {
    await stopServer();
    const consoleText = console_.text();
    assert.match(consoleText, /"msg":"startup step 1 configuration: ok"/, 'the server console was captured');
    observed.add('server console', consoleText);

    const settings = operatorSettings({ env: { STATE_DIR: state.dir, ENV_FILE: '' }, cwd: state.dir });
    const installation = [...forbiddenMaterial(settings), ...metSecrets];
    for (const id of lab.state.cuc.sessions.ids)
      installation.push(...secretNeedles('a CUPI session cookie', id));
    const findings: Finding[] = observed.scan([...C.needles(), ...installation]);
    const st = scanStateDir(state.dir, {
      canaries: C,
      secrets: installation,
      unpacked: join(work.dir, 'unpacked'),
      allowedIn: { '.env': ['env-api-key', 'env-plain-sftp-password'] },
    });
    assert.deepEqual([...findings, ...st.findings], []);

    // The search was not empty-handed: every kind of source was seen, the logs rotated into archives.
    assert.ok(observed.count > 200, String(observed.count));
    assert.ok(progressMessages > 0, 'progress notifications were seen');
    assert.ok(st.scanned.includes('logs/audit.log'));
    assert.ok(
      st.scanned.some((f) => /logs\/app\.log\..*gz$/.test(f)),
      st.scanned.join(),
    );
    // Secrets the server keeps are readable by nobody else (the RSA private key was copied in 0644); the
    // public key and the certificates (the served chain, the local CA users trust) are public.
    const open = st.designated.filter(
      (d) => (d.mode & 0o077) !== 0 && !/^(\.env|secrets\/(rsa_public|tls_cert|ca_cert)\.pem)$/.test(d.rel),
    );
    assert.deepEqual(open, []);
  });

  it('backups hold the canaries only encrypted: the vault stays sealed inside them', async () => {
    const backups = readdirSync(join(state.dir, 'backups'))
      .filter((f) => f.endsWith('.enc'))
      .sort();
    const archive = await openArchive(
      join(state.dir, 'backups', backups.at(-1) as string),
      createPrivateKey(readFileSync(join(state.dir, 'secrets', 'rsa_private.pem'))),
    );
    const chunks: Buffer[] = [];
    for await (const chunk of decryptStream(archive) as AsyncIterable<Buffer>) chunks.push(chunk);
    const tar = gunzipSync(Buffer.concat(chunks));
    assert.ok(tar.includes('clients/admin1/vault/credentials.json'), 'the backup holds the vault');
    assert.ok(tar.includes(ENV.apiKey), 'the backup holds .env, so the search would see a canary');
    const inside = C.needles(['env-api-key', 'env-plain-sftp-password']).filter((n) =>
      tar.includes(n.needle),
    );
    assert.deepEqual([...new Set(inside.map((n) => n.label))], []);
    const copies = filesBelow(remote.dir);
    assert.ok(copies.length >= 2, 'the SFTP server holds a copy and its sidecar');
    for (const file of copies) {
      const bytes = readFileSync(file);
      assert.deepEqual(
        C.needles().filter((n) => bytes.includes(n.needle)),
        [],
        file,
      );
    }
  });

  it('the defects this search found stay fixed', () => {
    // A login pasted into a host field was audited whole (ACTIONS host); now only the host is.
    const pasted = auditRecords(state.dir).filter(
      (r) =>
        r.event === 'ACTIONS' && r.tool_name === 'cucm_store_credentials' && String(r.host).includes('@'),
    );
    assert.ok(pasted.length >= 1);
    assert.deepEqual(new Set(pasted.map((r) => r.host)), new Set([`[REDACTED]@${node('cucm').name}`]));
    // The server's RSA private key, copied in readable by others, was made 0600 at the start.
    assert.equal(statSync(join(state.dir, 'secrets', 'rsa_private.pem')).mode & 0o777, 0o600);
    // Redaction turned bunyan's Date into {}: app.log lines had no time.
    const appLog = readFileSync(join(state.dir, 'logs', 'app.log'), 'utf8')
      .trim()
      .split('\n');
    assert.ok(
      appLog.every((l) => typeof (JSON.parse(l) as { time?: unknown }).time === 'string'),
      appLog[0],
    );
  });
});

describe('the canary scanner finds every form of a canary', () => {
  it('raw, escaped, a fragment, hex, and base64 at every alignment', () => {
    const c = new Canaries();
    const pw = c.password('probe');
    const core = /-probe-([0-9a-f]{24})/.exec(pw)?.[1] as string;
    const found = (text: string | Buffer): boolean => {
      const b = typeof text === 'string' ? Buffer.from(text) : text;
      return c.needles().some((n) => b.includes(n.needle));
    };
    const forms = [
      pw,
      JSON.stringify({ password: pw }),
      encodeURIComponent(pw),
      pw.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/"/g, '&quot;'),
      `…${core.slice(5, 17)}…`,
      Buffer.from(pw).toString('hex'),
      core.toUpperCase(),
      ...['', 'a', 'ab', 'abc'].flatMap((p) => [
        `Basic ${Buffer.from(`${p}user:${pw}`).toString('base64')}`,
        Buffer.from(`${p}${pw}`).toString('base64url'),
      ]),
    ];
    for (const f of forms) assert.ok(found(f), f);
    assert.equal(
      found(`CANARY-probe-${'0'.repeat(24)} and Basic ${Buffer.from('user:other').toString('base64')}`),
      false,
    );
    assert.ok(encodings('x', core).every((n) => n.needle.length >= 8));
  });
});

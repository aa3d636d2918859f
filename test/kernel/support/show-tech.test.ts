import assert from 'node:assert/strict';
import { createPublicKey, randomBytes } from 'node:crypto';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createBackup } from '../../../kernel/backup/create-backup.ts';
import { encryptSftpPassword } from '../../../kernel/backup/sftp-password.ts';
import { command as showTech } from '../../../kernel/cli/commands/show-tech.ts';
import { captureIo, type CapturedIo } from '../../helpers/cli-io.ts';
import { unzipAll } from '../../helpers/unzip.ts';
import { runCommandWith } from '../../../kernel/cli/dispatch.ts';
import { startTestKernel } from '../../helpers/kernel.ts';
import { cachedRsaKeyPair } from '../../helpers/keys.ts';
import { connectMcp } from '../../helpers/mcp-client.ts';
import { basicAuth, bearer, clientFiles, postForm } from '../../helpers/oauth.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

// The support bundle must never carry a secret. Distinct canaries are stored everywhere a secret can
// live (the vault, client secrets, startup and OAuth JWTs, the RSA key, the license, secret .env
// values, a backup, secret-shaped text in the logs); then every byte of the bundle, the zip file and
// each decompressed entry, is searched for each of them.

const tag = (name: string): string => `${name}${randomBytes(12).toString('hex')}`;
const CANARY = {
  nodePassword: tag('CanaryNodePw'),
  nodeOsPassword: tag('CanaryNodeOsPw'),
  sftpPlain: tag('CanarySftpPlain'),
  apiKey: tag('CanaryApiKey'),
  dbPassword: 'canary-db-password-plain',
  opaque: randomBytes(24).toString('base64url'),
  webhook: randomBytes(20).toString('base64url'),
  note: tag('CanaryNote'),
  comment: tag('CanaryComment'),
  pemLine: randomBytes(48).toString('base64'),
  logPassword: tag('CanaryLogPw'),
  logSecret: tag('CanaryLogSecret'),
  logBearer: tag('CanaryLogBearer'),
  badBearer: tag('CanaryBadBearer'),
  badClientSecret: tag('CanaryBadClientSecret'),
};

function testIo(env: NodeJS.ProcessEnv, cwd: string): CapturedIo {
  return captureIo(env, cwd);
}

const PATTERNS: [string, RegExp][] = [
  ['PEM private key marker', /PRIVATE KEY-----/],
  ['JWT', /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{16,}/],
];

/** Names of the canaries (or patterns) found in `bytes`. */
function leaks(bytes: Buffer, needles: Map<string, Buffer>): string[] {
  const found = [...needles].filter(([, n]) => bytes.includes(n)).map(([label]) => label);
  const text = bytes.toString('latin1');
  for (const [label, re] of PATTERNS) if (re.test(text)) found.push(label);
  return found;
}

const EXPECTED_FILES = [
  'app.log',
  'audit.log',
  'clients.json',
  'dependencies.json',
  'env.redacted.txt',
  'integrity.json',
  'license.json',
  'summary.json',
  'versions.json',
];

describe('show_tech support bundle', () => {
  const state = tempStateDir('ucmcp-showtech-');
  const out = tempStateDir('ucmcp-showtech-out-');
  after(() => {
    state.cleanup();
    out.cleanup();
  });
  const needles = new Map<string, Buffer>();
  const addNeedle = (label: string, value: string | Buffer): void => {
    const b = typeof value === 'string' ? Buffer.from(value) : value;
    assert.ok(b.length >= 8, `canary ${label} is long enough to search for`);
    needles.set(label, b);
  };
  const env = (): NodeJS.ProcessEnv => ({ STATE_DIR: state.dir, ENV_FILE: '' });

  before(async () => {
    const serverPublic = createPublicKey(cachedRsaKeyPair().publicPem);
    const sftpEnc = encryptSftpPassword(CANARY.sftpPlain, serverPublic);
    writeFileSync(
      join(state.dir, '.env'),
      [
        '# written by the show_tech test',
        'SERVER_NAME=uc-drill-server',
        'AUTH_CLIENTS=noc-agent:admin:cucm,auditor1:auditor:cucm',
        'LOGGING_LEVEL=debug',
        `BACKUP_SFTP_PASSWORD_ENC=${sftpEnc}`,
        `SOME_API_KEY=${CANARY.apiKey}`,
        `DB_PASSWORD=${CANARY.dbPassword}`,
        `OPAQUE_SETTING=${CANARY.opaque}`,
        `WEBHOOK_URL=https://hooks.example.com/services/${CANARY.webhook}`,
        `NOTE_SETTING="password=${CANARY.note}"`,
        `# OLD_PASSWORD=${CANARY.comment}`,
        `PEM_BLOB="-----BEGIN RSA PRIVATE KEY-----\n${CANARY.pemLine}\n-----END RSA PRIVATE KEY-----"`,
        '',
      ].join('\n'),
    );
    addNeedle('BACKUP_SFTP_PASSWORD_ENC value', sftpEnc);
    for (const [label, value] of Object.entries(CANARY)) addNeedle(label, value);

    const k = await startTestKernel({
      stateDir: state.dir,
      env: {
        AUTH_BCRYPT_COST: '4',
        BACKUP_ENABLED: '0',
      },
      license: { products: ['cucm'] },
    });
    try {
      // A managed-node credential through the MCP tool (as an agent stores one), another through the vault.
      const startup = clientFiles(state.dir, 'noc-agent');
      const mcp = await connectMcp(k, startup.token);
      const stored = await mcp.call('cucm_store_credentials', {
        host: 'cucm1.example.com',
        username: 'axladmin',
        password: CANARY.nodePassword,
      });
      assert.notEqual(stored.isError, true, JSON.stringify(stored.content));
      await mcp.close();
      await k.kernel.runtime.vault
        .forClient('auditor1')
        .store('cucm', 'os', 'cucm1.example.com', { username: 'osadmin', password: CANARY.nodeOsPassword });

      // An OAuth access token, and refused attempts that carry secrets (they must not reach the logs).
      const cc = await postForm(
        k,
        '/token',
        { grant_type: 'client_credentials' },
        { authorization: basicAuth('noc-agent', startup.secret) },
      );
      const access = ((await cc.json()) as { access_token: string }).access_token;
      assert.equal((await k.fetch(`${k.url}/status`, { headers: bearer(access) })).status, 200);
      addNeedle('OAuth access token', access);
      await (await k.fetch(`${k.url}/status`, { headers: bearer(CANARY.badBearer) })).arrayBuffer();
      await (
        await postForm(
          k,
          '/token',
          { grant_type: 'client_credentials' },
          { authorization: basicAuth('noc-agent', CANARY.badClientSecret) },
        )
      ).arrayBuffer();

      for (const name of ['noc-agent', 'auditor1']) {
        const files = clientFiles(state.dir, name);
        addNeedle(`${name} startup JWT`, files.token);
        addNeedle(`${name} startup JWT signature`, files.token.split('.')[2] as string);
        addNeedle(`${name} OAuth client secret`, files.secret);
      }
    } finally {
      await k.stop();
    }

    const rsaPem = readFileSync(join(state.dir, 'secrets', 'rsa_private.pem'), 'utf8');
    addNeedle('RSA private key', rsaPem);
    rsaPem
      .split('\n')
      .filter((l) => /^[A-Za-z0-9+/=]{40,}$/.test(l))
      .forEach((l, i) => addNeedle(`RSA private key line ${i}`, l));
    const license = readFileSync(join(state.dir, 'secrets', 'license.jwt'), 'utf8').trim();
    addNeedle('license.jwt', license);
    addNeedle('license.jwt payload', license.split('.')[1] as string);
    addNeedle('license.jwt signature', license.split('.')[2] as string);
    addNeedle(
      'vault master secret (hex)',
      readFileSync(join(state.dir, 'secrets', 'vault_master.key')).toString('hex'),
    );
    addNeedle('vault master secret (raw)', readFileSync(join(state.dir, 'secrets', 'vault_master.key')));
    for (const client of ['noc-agent', 'auditor1']) {
      const vault = JSON.parse(
        readFileSync(join(state.dir, 'clients', client, 'vault', 'credentials.json'), 'utf8'),
      ) as { records: Record<string, { box: string }> };
      for (const [slot, rec] of Object.entries(vault.records))
        addNeedle(`sealed credential ${slot}`, rec.box);
    }

    const backup = await createBackup({ stateDir: state.dir, hostname: 'canary' });
    const backupBytes = readFileSync(backup.file);
    for (const at of [64, Math.floor(backupBytes.length / 2), backupBytes.length - 80])
      addNeedle(`backup bytes at ${at}`, backupBytes.subarray(at, at + 32));

    // Secret-shaped text in the logs, as an older writer or a hand edit could have left it.
    appendFileSync(
      join(state.dir, 'logs', 'app.log'),
      [
        `plain text dump password=${CANARY.logPassword} end`,
        JSON.stringify({
          msg: 'debug',
          client_secret: CANARY.logSecret,
          nested: { header: `Bearer ${CANARY.logBearer}` },
        }),
        JSON.stringify({ msg: `token was ${clientFiles(state.dir, 'auditor1').token}` }),
        ...rsaPem.trim().split('\n'),
        'after the key',
        '',
      ].join('\n'),
    );
  });

  it('zip: the listed contents, and no canary in the zip bytes or any decompressed entry', async () => {
    const io = testIo(env(), state.dir);
    assert.equal(await runCommandWith(showTech, ['--output', join(out.dir, 'zip')], io), 0, io.stderr);
    const [name] = readdirSync(join(out.dir, 'zip'));
    assert.match(name ?? '', /^show_tech_[A-Za-z0-9._-]+_\d{8}T\d{6}Z\.zip$/);
    const file = join(out.dir, 'zip', name as string);
    assert.equal(statSync(file).mode & 0o777, 0o600);
    assert.deepEqual(leaks(readFileSync(file), needles), [], 'zip file bytes');

    const entries = await unzipAll(file);
    const root = (name as string).replace(/\.zip$/, '');
    assert.deepEqual(
      [...entries.keys()].sort(),
      EXPECTED_FILES.map((f) => `${root}/${f}`),
    );
    for (const [entry, bytes] of entries) assert.deepEqual(leaks(bytes, needles), [], entry);

    const text = (f: string): string => (entries.get(`${root}/${f}`) as Buffer).toString('utf8');
    const json = (f: string): Record<string, unknown> => JSON.parse(text(f)) as Record<string, unknown>;
    const versions = json('versions.json') as {
      runtime: { node: string };
      os: { platform: string };
      server: { version: string };
    };
    assert.equal(versions.runtime.node, process.version);
    assert.equal(typeof versions.os.platform, 'string');
    assert.match(versions.server.version, /^\d+\.\d+\.\d+/);

    const envText = text('env.redacted.txt');
    assert.match(envText, /^SERVER_NAME=uc-drill-server$/m, 'harmless settings stay readable');
    for (const key of [
      'BACKUP_SFTP_PASSWORD_ENC',
      'SOME_API_KEY',
      'DB_PASSWORD',
      'OPAQUE_SETTING',
      'WEBHOOK_URL',
      'NOTE_SETTING',
      'PEM_BLOB',
    ])
      assert.match(envText, new RegExp(`^${key}=\\[REDACTED\\]$`, 'm'), key);

    const license = json('license.json');
    // The verdict license_checker would give: the test vendor's key is trusted in-process by the test
    // server only, not by the tree on disk, so offline the license is INVALID for an unknown publisher.
    assert.equal(license.file_present, true);
    assert.equal(license.state, 'INVALID');
    assert.equal(license.signature, 'unknown-key');
    assert.ok(!('claims' in license) && !('customer' in license), 'no license content');
    assert.deepEqual(json('clients.json'), {
      configured: ['noc-agent', 'auditor1'],
      on_disk: ['auditor1', 'noc-agent'],
    });
    assert.ok(['valid', 'unsigned', 'invalid', 'modified'].includes(json('integrity.json').status as string));
    const deps = json('dependencies.json') as { dependencies: Record<string, { installed: string | null }> };
    assert.match(deps.dependencies.jose?.installed ?? '', /^\d+\./);

    assert.match(text('audit.log'), /STARTUP_COMPLETE/);
    assert.match(text('app.log'), /after the key/, 'the log is there, only the secrets are masked');
    assert.match(text('app.log'), /password=\[REDACTED\]/);
  });

  it('--no-zip writes the same contents as a folder, and every file is clean', async () => {
    const io = testIo(env(), state.dir);
    assert.equal(
      await runCommandWith(showTech, ['--no-zip', '--output', join(out.dir, 'folder')], io),
      0,
      io.stderr,
    );
    const [name] = readdirSync(join(out.dir, 'folder'));
    assert.match(name ?? '', /^show_tech_[A-Za-z0-9._-]+_\d{8}T\d{6}Z$/);
    const dir = join(out.dir, 'folder', name as string);
    assert.deepEqual(readdirSync(dir).sort(), EXPECTED_FILES);
    for (const f of readdirSync(dir)) assert.deepEqual(leaks(readFileSync(join(dir, f)), needles), [], f);
  });

  it('--no-logs leaves app.log and audit.log out', async () => {
    const io = testIo(env(), state.dir);
    assert.equal(
      await runCommandWith(showTech, ['--no-zip', '--no-logs', '--output', join(out.dir, 'nologs')], io),
      0,
      io.stderr,
    );
    const [name] = readdirSync(join(out.dir, 'nologs'));
    const files = readdirSync(join(out.dir, 'nologs', name as string)).sort();
    assert.deepEqual(
      files,
      EXPECTED_FILES.filter((f) => !f.endsWith('.log')),
    );
  });

  it('a secret the redactor cannot recognise stops the bundle: exit 1, nothing written, nothing echoed', async () => {
    // A bare client secret in a log line has no secret shape a redactor could see; only the final
    // search for this installation's own secrets can catch it.
    const secret = clientFiles(state.dir, 'noc-agent').secret;
    appendFileSync(join(state.dir, 'logs', 'app.log'), `operator note ${secret}\n`);
    const target = join(out.dir, 'refused');
    mkdirSync(target);
    const io = testIo(env(), state.dir);
    assert.equal(await runCommandWith(showTech, ['--output', target], io), 1);
    assert.match(io.stderr, /app\.log: .*clients\/noc-agent\/secrets\/\.client_secret/);
    assert.ok(!io.stderr.includes(secret) && !io.stdout.includes(secret));
    assert.deepEqual(readdirSync(target), [], 'no bundle and no staging folder left behind');
    assert.ok(existsSync(join(state.dir, 'logs', 'app.log')));
  });
});

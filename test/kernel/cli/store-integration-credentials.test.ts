import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import bunyan from 'bunyan';
import { AuditLog } from '../../../kernel/audit/audit-log.ts';
import { command } from '../../../kernel/cli/commands/store-integration-credentials.ts';
import { PROJECT_ROOT, statePaths } from '../../../kernel/paths.ts';
import { Vault, type CredentialSecret } from '../../../kernel/vault/index.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';
import { fakeIo, type FakeIo } from './fake-io.ts';

const PASSWORD = 'Int3gr@tion-s3cret-pw';
const CA_PEM = '-----BEGIN CERTIFICATE-----\nMIIBfake\n-----END CERTIFICATE-----\n';

/** Reads a credential back through the vault, as the server would for the client. */
async function readBack(stateDir: string, client: string, host: string): Promise<CredentialSecret> {
  const paths = statePaths(stateDir);
  const audit = new AuditLog({
    path: join(stateDir, 'logs', 'readback.log'),
    maxBytes: 1 << 20,
    maxFiles: 1,
  });
  try {
    const vault = Vault.open(paths, audit, bunyan.createLogger({ name: 't', streams: [] }));
    return await vault.forClient(client).get('cucm', 'axl', host);
  } finally {
    await audit.close();
  }
}

describe('store_integration_credentials', () => {
  let state: { dir: string; cleanup: () => void };
  before(() => {
    state = tempStateDir('ucmcp-intcred-');
  });
  after(() => state.cleanup());

  const base = (): Record<string, string | boolean> => ({
    product: 'cucm',
    kind: 'axl',
    host: 'CUCM-Pub.example.com',
    username: 'axladmin',
    'state-dir': state.dir,
  });
  const run = async (values: Record<string, string | boolean>, io: FakeIo): Promise<number> =>
    command.run({ values, positionals: [] }, io);
  const noSecretIn = (io: FakeIo): void => {
    assert.ok(
      !io.stdout.includes(PASSWORD) && !io.stderr.includes(PASSWORD),
      'the password is never printed',
    );
    assert.ok(!io.stdout.includes('axladmin') && !io.stderr.includes('axladmin'), 'nor the user name');
  };

  it('stores a credential from the environment, sealed, readable through the vault, audited without the secret', async () => {
    writeFileSync(join(state.dir, 'ca.pem'), CA_PEM);
    const io = fakeIo({ env: { UC_INTEGRATION_PASSWORD: PASSWORD }, cwd: state.dir });
    const code = await run({ ...base(), address: '10.0.0.5:8443', 'ca-cert': 'ca.pem' }, io);
    assert.equal(code, 0, io.stderr);
    assert.match(
      io.stdout,
      /stored cucm axl credentials for cucm-pub\.example\.com in the vault of client integration-test/,
    );
    noSecretIn(io);
    const secret = await readBack(state.dir, 'integration-test', 'cucm-pub.example.com');
    assert.deepEqual(secret, {
      username: 'axladmin',
      password: PASSWORD,
      options: { address: '10.0.0.5:8443', caCertPem: CA_PEM },
    });
    const file = readFileSync(
      join(state.dir, 'clients', 'integration-test', 'vault', 'credentials.json'),
      'utf8',
    );
    assert.ok(!file.includes(PASSWORD) && !file.includes('axladmin'), 'sealed on disk');
    const audit = readFileSync(statePaths(state.dir).auditLog, 'utf8');
    assert.match(audit, /"event":"CREDENTIAL"/);
    assert.match(audit, /"client":"integration-test"/);
    assert.ok(!audit.includes(PASSWORD));
  });

  it('an existing credential is replaced only when confirmed: refused without a terminal unless --yes', async () => {
    const env = { UC_INTEGRATION_PASSWORD: 'second-password' };
    const refused = fakeIo({ env });
    assert.equal(await run(base(), refused), 3);
    assert.match(refused.stderr, /already has cucm axl credentials .*pass --yes/s);
    assert.equal((await readBack(state.dir, 'integration-test', 'cucm-pub.example.com')).password, PASSWORD);

    const declined = fakeIo({ env, interactive: true, answers: ['n'] });
    assert.equal(await run(base(), declined), 3);

    const yes = fakeIo({ env });
    assert.equal(await run({ ...base(), yes: true }, yes), 0, yes.stderr);
    assert.match(yes.stdout, /^replaced /);
    const secret = await readBack(state.dir, 'integration-test', 'cucm-pub.example.com');
    assert.equal(secret.password, 'second-password');
    assert.equal(secret.options, undefined);
  });

  it('reads the password typed twice without echo, from --password-stdin, or from --password-env', async () => {
    const typed = fakeIo({ interactive: true, secrets: [PASSWORD, PASSWORD], answers: ['y'] });
    assert.equal(await run({ ...base(), client: 'other-client' }, typed), 0, typed.stderr);
    assert.deepEqual(typed.asked, ['Password (not echoed): ', 'Password again: ']);
    noSecretIn(typed);
    assert.equal((await readBack(state.dir, 'other-client', 'cucm-pub.example.com')).password, PASSWORD);

    const differ = fakeIo({ interactive: true, secrets: [PASSWORD, 'typo'] });
    assert.equal(await run({ ...base(), client: 'third-client' }, differ), 1);
    assert.match(differ.stderr, /the two passwords differ; nothing stored/);
    noSecretIn(differ);

    const piped = fakeIo({ stdin: `${PASSWORD}-piped\n` });
    assert.equal(
      await run({ ...base(), client: 'third-client', 'password-stdin': true }, piped),
      0,
      piped.stderr,
    );
    assert.equal(
      (await readBack(state.dir, 'third-client', 'cucm-pub.example.com')).password,
      `${PASSWORD}-piped`,
    );

    const named = fakeIo({ env: { MY_PW: 'from-my-var' } });
    assert.equal(await run({ ...base(), client: 'fourth-client', 'password-env': 'MY_PW' }, named), 0);
    assert.equal(
      (await readBack(state.dir, 'fourth-client', 'cucm-pub.example.com')).password,
      'from-my-var',
    );
  });

  it('usage errors: no password source without a terminal, missing options, a kind not of the product, a bad host', async () => {
    const none = fakeIo();
    assert.equal(await run({ ...base(), client: 'fifth-client' }, none), 2);
    assert.match(none.stderr, /no password: no terminal .*--password-stdin or set UC_INTEGRATION_PASSWORD/);
    const env = { UC_INTEGRATION_PASSWORD: PASSWORD };
    const missing = fakeIo({ env });
    const { username: _u, ...noUser } = base();
    assert.equal(await run(noUser, missing), 2);
    assert.match(missing.stderr, /--username is required/);
    const kind = fakeIo({ env });
    assert.equal(await run({ ...base(), product: 'cuc', kind: 'axl' }, kind), 2);
    assert.match(kind.stderr, /--kind for cuc must be one of cupi, os/);
    const host = fakeIo({ env });
    assert.equal(await run({ ...base(), host: `admin:${PASSWORD}@cucm1` }, host), 2);
    assert.match(host.stderr, /invalid host: user information \(@\) is not allowed/);
    noSecretIn(host);
  });

  it('the script refuses a password on the command line, without echoing it', async () => {
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        join(PROJECT_ROOT, 'scripts', 'store_integration_credentials.ts'),
        '--product',
        'cucm',
        `--password=${PASSWORD}`,
      ],
      { cwd: PROJECT_ROOT, env: { PATH: process.env.PATH ?? '' }, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    let output = '';
    child.stdout.on('data', (d: Buffer) => (output += d.toString()));
    child.stderr.on('data', (d: Buffer) => (output += d.toString()));
    const code = await new Promise((resolve) => child.on('exit', resolve));
    assert.equal(code, 2);
    assert.match(output, /Unknown option '--password'/);
    assert.ok(!output.includes(PASSWORD));
  });
});

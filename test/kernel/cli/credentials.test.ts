// `ucmcp credentials`, run as real processes: store (password piped), list, update, delete, what
// it refuses, and that the password shows up nowhere but sealed in the vault.
import assert from 'node:assert/strict';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import bunyan from 'bunyan';
import { AuditLog } from '../../../kernel/audit/audit-log.ts';
import { statePaths } from '../../../kernel/paths.ts';
import { Vault } from '../../../kernel/vault/index.ts';
import { runNamed } from '../../../kernel/cli/dispatch.ts';
import { readAudit } from '../../helpers/kernel.ts';
import { generateSelfSigned } from '../../helpers/self-signed.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';
import { runUcmcp, type UcmcpRun } from '../../helpers/ucmcp-process.ts';
import { allBytesUnder } from '../vault/vault-fixture.ts';
import { fakeIo } from './fake-io.ts';

const FIRST = 'Op3rator-Canary-1f9e';
const SECOND = 'Op3rator-Canary-2b7c';
const ARGV_PW = 'Argv-Canary-77d1';

describe('ucmcp credentials (operator command, real processes)', () => {
  const temp = tempStateDir('ucmcp-cred-cli-');
  after(() => temp.cleanup());
  const env = {
    STATE_DIR: temp.dir,
    AUTH_CLIENTS: 'noc1:operator:cucm+cuc,aud1:auditor:cucm',
    SERVER_HOST: '127.0.0.1',
    SERVER_PORT: '18443',
  };
  const outputs: UcmcpRun[] = [];
  const run = async (args: string[], stdin?: string): Promise<UcmcpRun> => {
    const r = await runUcmcp(['credentials', ...args], { env, ...(stdin !== undefined ? { stdin } : {}) });
    outputs.push(r);
    return r;
  };
  /** The same command in this process (for the refusals, which need no second process to prove). */
  const inProcess = async (args: string[], stdin?: string): Promise<UcmcpRun> => {
    const io = fakeIo({ env, cwd: temp.dir, ...(stdin !== undefined ? { stdin } : {}) });
    const code = await runNamed('credentials', args, io);
    const r = { code, stdout: io.stdout, stderr: io.stderr };
    outputs.push(r);
    return r;
  };
  const ca = generateSelfSigned(['ca.lab.test'], 30, 'CLI test CA').certPem;
  const caFile = join(temp.dir, 'ca.pem');
  writeFileSync(caFile, ca);
  const slot = ['--client', 'noc1', '--product', 'cucm', '--host', 'CUCM-Pub'];
  const where = ['--address', '127.0.0.1:8443', '--ca-cert', caFile];

  const sealed = async () => {
    const paths = statePaths(temp.dir);
    const audit = new AuditLog({ path: join(temp.dir, 'inspect-audit.log'), maxBytes: 1e6, maxFiles: 1 });
    try {
      const vault = Vault.open(paths, audit, bunyan.createLogger({ name: 't', streams: [] }));
      return await vault.forClient('noc1').get('cucm', 'axl', 'cucm-pub');
    } finally {
      await audit.close();
    }
  };

  it('stores with --password-stdin exactly as the tools would, and refuses a second store', async () => {
    const r = await run(['store', ...slot, '-u', 'axladmin', ...where, '--password-stdin'], `${FIRST}\n`);
    assert.equal(r.code, 0, r.stderr);
    assert.equal(r.stdout, 'Stored cucm axl credentials for cucm-pub in the vault of client noc1.\n');
    assert.deepEqual(await sealed(), {
      username: 'axladmin',
      password: FIRST,
      options: { address: '127.0.0.1:8443', caCertPem: ca },
    });
    const again = await run(['store', ...slot, '-u', 'axladmin', ...where, '--password-stdin'], `${FIRST}\n`);
    assert.equal(again.code, 1);
    assert.match(again.stderr, /already exist; use update to replace them/);
  });

  it('lists hosts, kinds and user names, never a password', async () => {
    const text = await run(['list', '--client', 'noc1']);
    assert.equal(text.code, 0, text.stderr);
    assert.match(text.stdout, /^ {2}cucm axl {3}cucm-pub {2}user "axladmin" {2}updated \d{4}-/m);
    const json = JSON.parse((await inProcess(['list', '--client', 'noc1', '--json'])).stdout) as {
      credentials: Record<string, unknown>[];
    };
    assert.deepEqual(Object.keys(json.credentials[0] ?? {}), [
      'product',
      'kind',
      'host',
      'username',
      'updated_at',
      'read_only',
    ]);
    assert.equal(json.credentials[0]?.read_only, false);
    const empty = await inProcess(['list', '--client', 'noc1', '--product', 'cuc']);
    assert.equal(empty.stdout, 'Client noc1 has no stored credentials for cuc.\n');
  });

  it('stores a read-only credential with --read-only: sealed, listed, and cleared by an update without it', async () => {
    const ro = await run(
      ['update', ...slot, '-u', 'auditor', ...where, '--read-only', '--password-stdin'],
      FIRST,
    );
    assert.equal(ro.code, 0, ro.stderr);
    assert.match(ro.stdout, /\(read-only: writes forbidden\)/);
    assert.equal((await sealed()).read_only, true);
    const listed = await inProcess(['list', '--client', 'noc1']);
    assert.match(listed.stdout, /user "auditor" {2}updated \S+ {2}read-only$/m);
    const refused = await inProcess(['list', '--client', 'noc1', '--read-only']);
    assert.equal(refused.code, 2);
    const back = await run(['update', ...slot, '-u', 'axladmin', ...where, '--password-stdin'], FIRST);
    assert.equal(back.code, 0, back.stderr);
    assert.equal((await sealed()).read_only, undefined);
  });

  it('updates the password, then deletes only when confirmed', async () => {
    const u = await run(['update', ...slot, '-u', 'axladmin2', ...where, '--password-stdin'], SECOND);
    assert.equal(u.code, 0, u.stderr);
    assert.equal((await sealed()).password, SECOND);
    const unconfirmed = await inProcess(['delete', ...slot]);
    assert.equal(unconfirmed.code, 3);
    assert.match(unconfirmed.stderr, /pass --yes/);
    const d = await run(['delete', ...slot, '--yes']);
    assert.equal(d.code, 0, d.stderr);
    assert.equal(d.stdout, 'Deleted cucm axl credentials for cucm-pub from the vault of client noc1.\n');
    const gone = await inProcess(['delete', ...slot, '--yes']);
    assert.equal(gone.code, 1);
    assert.match(gone.stderr, /has no cucm axl credentials for cucm-pub/);
    const upd = await inProcess(['update', ...slot, '-u', 'x', ...where, '--password-stdin'], SECOND);
    assert.equal(upd.code, 1);
    assert.match(upd.stderr, /no axl credentials are stored/);
  });

  it('audits every change as CREDENTIAL by the operator', () => {
    const records = readAudit(temp.dir).filter((r) => r.event === 'CREDENTIAL');
    assert.deepEqual(
      records.map((r) => [
        r.operation,
        r.status,
        r.client,
        r.product,
        r.kind,
        r.cluster,
        r.by,
        r.reason,
        r.read_only,
      ]),
      [
        ['store', 'OK', 'noc1', 'cucm', 'axl', 'cucm-pub', 'operator', undefined, false],
        ['store', 'FAILED', 'noc1', 'cucm', 'axl', 'cucm-pub', 'operator', 'exists', false],
        ['update', 'OK', 'noc1', 'cucm', 'axl', 'cucm-pub', 'operator', undefined, true],
        ['update', 'OK', 'noc1', 'cucm', 'axl', 'cucm-pub', 'operator', undefined, false],
        ['update', 'OK', 'noc1', 'cucm', 'axl', 'cucm-pub', 'operator', undefined, false],
        ['delete', 'OK', 'noc1', 'cucm', 'axl', 'cucm-pub', 'operator', undefined, undefined],
        ['update', 'FAILED', 'noc1', 'cucm', 'axl', 'cucm-pub', 'operator', 'not_found', false],
      ],
    );
  });

  it('refuses a password on the command line, without repeating it, and stores nothing', async () => {
    const args = ['store', '--client', 'noc1', '--product', 'cuc', '--host', 'cuc1', '-u', 'a'];
    const r = await run([...args, '--password', ARGV_PW]);
    assert.equal(r.code, 2);
    assert.match(r.stderr, /never taken from the command line/);
    for (const pw of [[`--password=${ARGV_PW}`], ['-p', ARGV_PW]]) {
      const other = await inProcess([...args, ...pw]);
      assert.equal(other.code, 2, pw.join(' '));
      assert.match(other.stderr, /never taken from the command line/);
    }
    for (const o of outputs) assert.ok(!(o.stdout + o.stderr).includes(ARGV_PW));
    const list = await inProcess(['list', '--client', 'noc1', '--product', 'cuc']);
    assert.match(list.stdout, /no stored credentials/);
  });

  it('without a terminal, asks for --password-stdin; without --client, says so', async () => {
    const args = ['--product', 'cucm', '--host', 'h1', '-u', 'a', '--address', '127.0.0.1:8443'];
    const noTty = await run(['store', '--client', 'noc1', ...args]);
    assert.equal(noTty.code, 2);
    assert.match(noTty.stderr, /no terminal to type the password on: pipe it with --password-stdin/);
    const noClient = await run(['store', ...args, '--password-stdin'], 'Pw1\n');
    assert.equal(noClient.code, 2);
    assert.match(noClient.stderr, /--client is required/);
  });

  it('refuses what the tools refuse, with a usage error or a clear failure', async () => {
    const base = ['-u', 'a', '--address', '127.0.0.1:8443', '--password-stdin'];
    const badPem = join(temp.dir, 'bad.pem');
    writeFileSync(badPem, '-----BEGIN CERTIFICATE-----\nnot base64\n-----END CERTIFICATE-----\n');
    const store = (...a: string[]) => [
      'store',
      '--client',
      'noc1',
      '--product',
      'cucm',
      '--host',
      'h1',
      ...a,
    ];
    const cases: [string[], number, RegExp][] = [
      [
        ['store', '--client', 'nobody', '--product', 'cucm', '--host', 'h1', ...base],
        1,
        /no client "nobody" in AUTH_CLIENTS/,
      ],
      [
        ['store', '--client', 'noc1', '--product', 'uccx', '--host', 'h1', ...base],
        2,
        /--product must be one of cucm, imp, cuc/,
      ],
      [
        ['store', '--client', 'noc1', '--product', 'cuc', '--kind', 'axl', '--host', 'h1', ...base],
        2,
        /--kind for cuc must be one of cupi, os/,
      ],
      [
        ['store', '--client', 'noc1', '--product', 'cucm', '--host', 'admin:Pw1@cucm', ...base],
        2,
        /user information \(@\) is not allowed/,
      ],
      [['store', '--client', 'noc1', '--product', 'cucm', '--host', 'a/b', ...base], 2, /slashes/],
      [['store', '--client', 'aud1', '--product', 'cuc', '--host', 'h1', ...base], 1, /scoped to cucm/],
      [store(...base, '--ca-cert', badPem), 1, /not a parsable X\.509 certificate/],
      [
        store(...base, '--cert', join(temp.dir, 'absent.pem')),
        1,
        /--cert: cannot read .*absent\.pem \(ENOENT\)/,
      ],
      [store(...base, '--scheme', 'https'), 2, /--scheme goes with --kind phone/],
      [store('-u', 'a', '--address', 'x@y', '--password-stdin'), 2, /--address must be/],
      [
        store('-u', 'a', '--address', '169.254.169.254', '--password-stdin'),
        1,
        /node address policy refuses 169\.254\.169\.254:8443/,
      ],
      [store('-u', 'a', '--address', '127.0.0.1:18443', '--password-stdin'), 1, /own listening address/],
      [store('--address', '127.0.0.1:8443', '--password-stdin'), 2, /--username is required/],
      [['list', '--client', 'noc1', '--host', 'h1'], 2, /list takes no --host/],
      [['purge', '--client', 'noc1'], 2, /the action is one of store, update, delete, list/],
    ];
    for (const [args, code, message] of cases) {
      const r = await inProcess(args, 'Pw1\n');
      assert.equal(r.code, code, `${args.join(' ')}: ${r.stderr}`);
      assert.match(r.stderr, message, args.join(' '));
      assert.ok(!r.stderr.includes('Pw1'), `${args.join(' ')} repeats the password`);
    }
    const empty = await inProcess(store(...base), '\n');
    assert.equal(empty.code, 1);
    assert.match(empty.stderr, /no password on stdin/);
    const twoLines = await inProcess(store(...base), 'a\nb\n');
    assert.equal(twoLines.code, 1);
    assert.match(twoLines.stderr, /more than one line/);
    assert.equal(existsSync(join(temp.dir, 'clients', 'aud1')), false);
  });

  it('leaves no password in any output or any file of the installation but sealed', () => {
    const everything = Buffer.concat([
      allBytesUnder(temp.dir),
      ...outputs.map((o) => Buffer.from(o.stdout + o.stderr)),
    ]);
    for (const pw of [FIRST, SECOND, ARGV_PW, 'Pw1']) assert.equal(everything.includes(pw), false, pw);
  });
});

// The operator's view: the `upgrade` command (what upgrade/run_upgrade.ts runs), its output, its
// confirmation, its exit codes, the pre-upgrade backup and --rollback.
import assert from 'node:assert/strict';
import { copyFileSync, existsSync, mkdirSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { EXIT, type CliIo } from '../../../kernel/cli/command.ts';
import { command } from '../../../kernel/cli/commands/upgrade.ts';
import { runCommandWith } from '../../../kernel/cli/dispatch.ts';
import { buildUpgradePackage, type BuiltPackage } from '../../../kernel/vendor/upgrade-package.ts';
import { seedServerKeys } from '../../helpers/keys.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';
import { copyTree, installRelease, release1, release2, snapshot, vendor, writeTree } from './fixture.ts';

interface FakeIo extends CliIo {
  stdout: string;
  stderr: string;
  questions: string[];
}

function fakeIo(opts: { interactive?: boolean; answer?: string } = {}): FakeIo {
  const io: FakeIo = {
    stdout: '',
    stderr: '',
    questions: [],
    out: (t) => void (io.stdout += t),
    err: (t) => void (io.stderr += t),
    interactive: opts.interactive ?? false,
    ask: async (q) => {
      io.questions.push(q);
      return opts.answer ?? '';
    },
    env: {},
    cwd: '/',
  };
  return io;
}

/** Everything but what an upgrade run leaves for the record (rollback copies, history, backups). */
function code(root: string): Record<string, string> {
  const s = snapshot(root);
  for (const p of Object.keys(s))
    if (p.startsWith('upgrade/rollback') || p === 'upgrade/history.jsonl' || p.startsWith('backups'))
      delete s[p];
  return s;
}

describe('upgrade command', () => {
  const t = tempStateDir('ucmcp-upgrade-cli-');
  let built: BuiltPackage;
  let pristine: string;

  before(async () => {
    built = await buildUpgradePackage({
      from: writeTree(join(t.dir, 'release-1.1.0'), release2()),
      previous: writeTree(join(t.dir, 'release-1.0.0'), release1()),
      version: '1.1.0',
      privateKey: vendor.privateKey,
      out: join(t.dir, 'out'),
      changelog: '## 1.1.0\n- feature\n',
    });
    pristine = await installRelease(join(t.dir, 'pristine'));
    seedServerKeys(pristine);
  });
  after(() => t.cleanup());

  /** An installation with the package, its .sig, .sha512 and runner dropped into upgrade/. */
  function installation(name: string): string {
    const root = copyTree(pristine, join(t.dir, name));
    mkdirSync(join(root, 'upgrade'), { recursive: true });
    for (const f of readdirSync(join(t.dir, 'out')))
      copyFileSync(join(t.dir, 'out', f), join(root, 'upgrade', f));
    return root;
  }

  it('--dry-run prints every file by action, the .env changes, changelog and steps, and changes nothing', async () => {
    const root = installation('dry');
    const before = snapshot(root);
    const io = fakeIo();
    assert.equal(await runCommandWith(command, ['--target', root, '--dry-run'], io), EXIT.OK, io.stderr);
    assert.deepEqual(snapshot(root), before);
    assert.match(io.stdout, /Upgrade uc-mcp-server 1\.0\.0 -> 1\.1\.0/);
    assert.match(io.stdout, /signed by +test-vendor/);
    assert.match(io.stdout, new RegExp(`SHA-512 +${built.sha512}`));
    assert.match(io.stdout, /Files: 6 replaced, 1 created, 1 deleted, \d+ unchanged/);
    assert.match(io.stdout, /Files replaced \(6\):\n {2}\.env\.example\n {2}kernel\/main\.ts\n/);
    assert.match(io.stdout, /Files created \(1\):\n {2}kernel\/new\/feature\.ts\n/);
    assert.match(io.stdout, /Files deleted \(1\):\n {2}kernel\/old\/legacy\.ts\n/);
    assert.match(io.stdout, /Files unchanged \(\d+\):\n {2}Dockerfile\n/);
    assert.match(io.stdout, /\.env \(.*\): 1 added, 2 overwritten, 2 kept/);
    assert.match(io.stdout, /overwritten PROJECT_VERSION: 1\.0\.0 -> 1\.1\.0/);
    assert.match(io.stdout, /added +REPORT_MAX_BYTES=10485760/);
    assert.match(io.stdout, /kept +LOGGING_LEVEL, SERVER_PORT/);
    assert.doesNotMatch(io.stdout, /debug/, 'a kept value is never printed');
    assert.match(io.stdout, /Changelog:\n {2}## 1\.1\.0\n {2}- feature/);
    assert.match(io.stdout, /After the upgrade:\n {2}1\. Rebuild the image/);
    assert.match(io.stdout, /Compare the SHA-512 above with the value the vendor publishes/);
    assert.match(io.stdout, /Dry run: nothing was changed\./);
  });

  it('without a terminal and without --yes it asks nobody and changes nothing (exit 3)', async () => {
    const root = installation('no-yes');
    const before = snapshot(root);
    const io = fakeIo();
    assert.equal(await runCommandWith(command, ['--target', root], io), EXIT.DECLINED);
    assert.match(io.stderr, /pass --yes/);
    assert.deepEqual(snapshot(root), before);
  });

  it('an operator who answers no changes nothing (exit 3)', async () => {
    const root = installation('answer-no');
    const before = snapshot(root);
    const io = fakeIo({ interactive: true, answer: 'n' });
    assert.equal(await runCommandWith(command, ['--target', root], io), EXIT.DECLINED);
    assert.match(io.questions[0] ?? '', /Apply the upgrade 1\.0\.0 -> 1\.1\.0/);
    assert.deepEqual(snapshot(root), before);
  });

  it('applies after a yes, makes the encrypted backup first, and --rollback undoes it all', async () => {
    const root = installation('apply');
    const before = code(root);
    const io = fakeIo({ interactive: true, answer: 'y' });
    const argv = ['--target', root, '--expect-sha512', built.sha512];
    assert.equal(await runCommandWith(command, argv, io), EXIT.OK, io.stderr);
    assert.match(io.stdout, /Upgraded uc-mcp-server 1\.0\.0 -> 1\.1\.0\./);
    assert.match(io.stdout, /files: 6 replaced, 1 created, 1 deleted/);
    assert.match(io.stdout, /The SHA-512 matches the published value/);
    assert.match(io.stdout, /integrity of the upgraded tree: valid/);
    assert.match(io.stderr, /applying .*done/);
    const backups = readdirSync(join(root, 'backups'));
    assert.equal(backups.filter((f) => f.endsWith('.tar.gz.enc')).length, 1, backups.join(','));
    assert.match(io.stdout, /pre-upgrade backup: .*backups\/backup_.*\.tar\.gz\.enc/);
    assert.equal(JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version, '1.1.0');

    const record = /rollback record: (.*)/.exec(io.stdout)?.[1] ?? '';
    assert.ok(existsSync(join(record, 'record.json')), record);
    const undo = fakeIo();
    assert.equal(await runCommandWith(command, ['--rollback', record, '--yes'], undo), EXIT.OK, undo.stderr);
    assert.deepEqual(code(root), before, 'the installation is back to 1.0.0');
  });

  it('--no-backup skips the backup; --yes without --expect-sha512 warns that nothing was compared', async () => {
    const root = installation('no-backup');
    const io = fakeIo();
    assert.equal(
      await runCommandWith(command, ['--target', root, '--yes', '--no-backup'], io),
      EXIT.OK,
      io.stderr,
    );
    assert.equal(existsSync(join(root, 'backups')), false);
    assert.match(io.stdout, /pre-upgrade backup: skipped \(--no-backup\)/);
    assert.match(io.stderr, /the checksum was not compared/);
  });

  it('a tampered package or a downgrade: exit 1, the stage named, nothing changed', async () => {
    const root = installation('refused');
    const pkg = join(root, 'upgrade', 'uc-mcp-server-1.1.0.tar.gz');
    const bytes = readFileSync(pkg);
    bytes[100] = (bytes[100] as number) ^ 0x40;
    const { writeFileSync, rmSync } = await import('node:fs');
    writeFileSync(pkg, bytes);
    rmSync(`${pkg}.sha512`);
    const before = snapshot(root);
    const io = fakeIo();
    assert.equal(await runCommandWith(command, ['--target', root, '--yes'], io), EXIT.FAILED);
    assert.match(io.stderr, /upgrade refused \(signature\)/);
    assert.deepEqual(snapshot(root), before);

    const newer = await installRelease(join(t.dir, 'newer'), release2('1.2.0'));
    const io2 = fakeIo();
    assert.equal(
      await runCommandWith(command, ['--target', newer, '--package', built.file, '--dry-run'], io2),
      EXIT.FAILED,
    );
    assert.match(io2.stderr, /upgrade refused \(version\): downgrade refused/);
  });

  it('without --package it needs exactly one package in upgrade/ (exit 2 otherwise)', async () => {
    const root = copyTree(pristine, join(t.dir, 'none'));
    const io = fakeIo();
    assert.equal(await runCommandWith(command, ['--target', root, '--dry-run'], io), EXIT.USAGE);
    assert.match(io.stderr, /no package in .*upgrade; give --package/);
  });
});

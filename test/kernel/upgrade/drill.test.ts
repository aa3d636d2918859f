// THE DRILL (issue 9): a package 1.0.0 -> 1.1.0 built by the vendor tool, previewed with a dry run and
// then applied to an installation; the preview must be what the real run does.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createBackup } from '../../../kernel/backup/create-backup.ts';
import { verifyTree } from '../../../kernel/integrity/verify.ts';
import { FILES_PREFIX, MANIFEST_ENTRY } from '../../../kernel/upgrade/format.ts';
import { runUpgrade, UpgradeRefused, type UpgradePlan } from '../../../kernel/upgrade/index.ts';
import { readTarGz } from '../../../kernel/upgrade/tar-read.ts';
import { buildUpgradePackage, type BuiltPackage } from '../../../kernel/vendor/upgrade-package.ts';
import { seedServerKeys } from '../../helpers/keys.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';
import { copyTree, installRelease, release1, release2, snapshot, vendor, writeTree } from './fixture.ts';

const paths = (plan: UpgradePlan, action: string): string[] =>
  plan.files.filter((f) => f.action === action).map((f) => f.path);

describe('upgrade drill 1.0.0 -> 1.1.0', () => {
  const t = tempStateDir('ucmcp-upgrade-');
  let built: BuiltPackage;
  let pristine: string;

  before(async () => {
    built = await buildUpgradePackage({
      from: writeTree(join(t.dir, 'release-1.1.0'), release2()),
      previous: writeTree(join(t.dir, 'release-1.0.0'), release1()),
      version: '1.1.0',
      privateKey: vendor.privateKey,
      out: join(t.dir, 'out'),
      changelog: '## 1.1.0\n- new feature module\n- REPORT_MAX_BYTES setting\n',
      postUpgrade: ['Tell the NOC.'],
    });
    pristine = await installRelease(join(t.dir, 'pristine'));
    seedServerKeys(pristine);
  });
  after(() => t.cleanup());

  it('the vendor tool writes the package, its signature, its checksum and the runner', () => {
    assert.equal(built.file, join(t.dir, 'out', 'uc-mcp-server-1.1.0.tar.gz'));
    assert.deepEqual(readdirSync(join(t.dir, 'out')).sort(), [
      'run_upgrade.ts',
      'uc-mcp-server-1.1.0.tar.gz',
      'uc-mcp-server-1.1.0.tar.gz.sha512',
      'uc-mcp-server-1.1.0.tar.gz.sig',
    ]);
    assert.equal(readFileSync(built.checksumFile, 'utf8'), `${built.sha512}  uc-mcp-server-1.1.0.tar.gz\n`);
    assert.equal(readFileSync(built.runnerFile, 'utf8'), '// runner 2\n');
    const m = built.manifest;
    assert.equal(m.version, '1.1.0');
    assert.equal(m.min_from_version, '1.0.0', 'defaults to the previous release');
    assert.equal(m.publisher, 'test-vendor');
    assert.deepEqual(
      m.files.filter((f) => f.action === 'delete').map((f) => f.path),
      ['kernel/old/legacy.ts'],
    );
    const tool = m.files.find((f) => f.path === 'scripts/tool.ts');
    assert.equal(tool?.action === 'write' && tool.mode, 0o755);
    assert.deepEqual(
      m.env.find((e) => e.key === 'REPORT_MAX_BYTES'),
      {
        key: 'REPORT_MAX_BYTES',
        value: '10485760',
        comment: ['Largest report, in bytes.', '(a second line of description)'],
      },
    );
    assert.equal(m.env.find((e) => e.key === 'PROJECT_VERSION')?.value, '1.1.0');
    assert.equal(m.post_upgrade.at(-1), 'Tell the NOC.');
  });

  it('the archive holds the manifest and every shipped file, with a freshly signed integrity manifest', async () => {
    const entries = await readTarGz(readFileSync(built.file), 1 << 30);
    assert.ok(entries.has(MANIFEST_ENTRY));
    assert.ok(entries.has(`${FILES_PREFIX}manifests/manifest.sig`));
    assert.ok(entries.has(`${FILES_PREFIX}Dockerfile`));
    assert.ok(!entries.has(`${FILES_PREFIX}kernel/old/legacy.ts`));
    assert.equal([...entries.keys()].filter((p) => !p.startsWith(FILES_PREFIX)).length, 1);
  });

  it('dry run changes nothing; the real run does exactly what it planned', async () => {
    const install = copyTree(pristine, join(t.dir, 'install'));
    const before = snapshot(install);

    const dry = await runUpgrade({ packageFile: built.file, root: install, env: {}, dryRun: true });
    assert.equal(dry.status, 'dry-run');
    assert.deepEqual(snapshot(install), before, 'a dry run writes nothing, not even upgrade/');
    const plan = dry.plan;
    assert.deepEqual(paths(plan, 'replace'), [
      '.env.example',
      'kernel/main.ts',
      'manifests/manifest.json',
      'manifests/manifest.sig',
      'package.json',
      'upgrade/run_upgrade.ts',
    ]);
    assert.deepEqual(paths(plan, 'create'), ['kernel/new/feature.ts']);
    assert.deepEqual(paths(plan, 'delete'), ['kernel/old/legacy.ts']);
    assert.ok(paths(plan, 'unchanged').includes('kernel/lib/util.ts'));
    assert.ok(paths(plan, 'unchanged').includes('scripts/tool.ts'));
    assert.deepEqual(
      plan.env.changes.filter((c) => c.change !== 'kept'),
      [
        { key: 'PROJECT_VERSION', change: 'overwritten', from: '1.0.0', to: '1.1.0' },
        {
          key: 'PROJECT_CREATOR',
          change: 'overwritten',
          from: 'uc-mcp-server maintainers',
          to: 'ACME UC team',
        },
        { key: 'REPORT_MAX_BYTES', change: 'added', to: '10485760' },
      ],
    );
    assert.match(plan.changelog, /new feature module/);
    assert.equal(plan.from, '1.0.0');
    assert.equal(plan.to, '1.1.0');

    let confirmedWith: UpgradePlan | undefined;
    const real = await runUpgrade({
      packageFile: built.file,
      root: install,
      env: {},
      backup: async (stateDir) => createBackup({ stateDir }),
      confirm: async (p) => {
        confirmedWith = p;
        return true;
      },
    });
    assert.equal(real.status, 'applied');
    if (real.status !== 'applied') return;
    assert.deepEqual(real.plan, plan, 'the real run planned exactly what the dry run showed');
    assert.deepEqual(confirmedWith, plan);
    assert.deepEqual(real.result.replaced, paths(plan, 'replace'));
    assert.deepEqual(real.result.created, paths(plan, 'create'));
    assert.deepEqual(real.result.deleted, paths(plan, 'delete'));
    assert.equal(readFileSync(join(install, '.env'), 'utf8'), plan.env.after);

    // The files are the release's; the dropped folder is gone; the tree verifies as the signed release.
    const target = release2();
    for (const [rel, content] of Object.entries(target))
      assert.equal(readFileSync(join(install, rel), 'utf8'), content, rel);
    assert.equal(existsSync(join(install, 'kernel/old')), false, 'the emptied folder is removed');
    assert.equal(real.integrity, 'valid');
    assert.equal((await verifyTree(install)).report.status, 'valid');

    // Pre-upgrade backup, history, rollback record.
    assert.ok(real.backup && existsSync(real.backup.file), 'an encrypted pre-upgrade backup was made');
    assert.match(real.backup?.file ?? '', /backups\/backup_.*\.tar\.gz\.enc$/);
    const history = readFileSync(join(install, 'upgrade', 'history.jsonl'), 'utf8')
      .trim()
      .split('\n');
    assert.equal(history.length, 1);
    assert.deepEqual(
      { ...JSON.parse(history[0] as string), at: undefined, rollback: undefined },
      {
        at: undefined,
        from: '1.0.0',
        to: '1.1.0',
        package: built.file,
        sha512: built.sha512,
        signer: 'test-vendor',
        backup: real.backup?.id,
        replaced: 6,
        created: 1,
        deleted: 1,
        env_written: true,
        rollback: undefined,
      },
    );
    const record = JSON.parse(readFileSync(join(real.result.rollbackDir, 'record.json'), 'utf8')) as {
      state: string;
    };
    assert.equal(record.state, 'applied');
    assert.equal(existsSync(join(install, 'upgrade', '.upgrade.lock')), false, 'the lock is released');
  });

  it('.env is merged by the spec rules: added with a comment, PROJECT_* overwritten, the rest kept', async () => {
    const install = copyTree(pristine, join(t.dir, 'install-env'));
    await runUpgrade({ packageFile: built.file, root: install, env: {} });
    assert.equal(
      readFileSync(join(install, '.env'), 'utf8'),
      `# Our settings (edited by the NOC).
PROJECT_NAME=uc-mcp-server
PROJECT_VERSION=1.1.0
PROJECT_CREATOR=ACME UC team

# more logging while we settle in
LOGGING_LEVEL=debug
SERVER_PORT=8443
AUTH_CLIENTS=noc:operator:cucm

# added by upgrade 1.1.0
# Largest report, in bytes.
# (a second line of description)
REPORT_MAX_BYTES=10485760
`,
    );
    assert.equal(existsSync(join(install, 'backups')), false, 'no backup function given: none made');
  });

  it('the same package again is refused as the same version, and changes nothing', async () => {
    const install = copyTree(pristine, join(t.dir, 'install-twice'));
    await runUpgrade({ packageFile: built.file, root: install, env: {} });
    const before = snapshot(install);
    await assert.rejects(
      runUpgrade({ packageFile: built.file, root: install, env: {} }),
      (err: unknown) =>
        err instanceof UpgradeRefused && err.stage === 'version' && /same version/.test(err.message),
    );
    assert.deepEqual(snapshot(install), before);
  });

  it('a downgrade is refused before anything changes', async () => {
    const install = await installRelease(join(t.dir, 'install-1.2.0'), release2('1.2.0'));
    const before = snapshot(install);
    await assert.rejects(
      runUpgrade({ packageFile: built.file, root: install, env: {} }),
      (err: unknown) =>
        err instanceof UpgradeRefused &&
        err.stage === 'version' &&
        /downgrade refused.*1\.1\.0.*1\.2\.0/.test(err.message),
    );
    await assert.rejects(
      runUpgrade({ packageFile: built.file, root: install, env: {}, dryRun: true }),
      /downgrade/,
    );
    assert.deepEqual(snapshot(install), before);
  });

  it('an installation older than min_from_version is sent through an intermediate release', async () => {
    const install = await installRelease(join(t.dir, 'install-0.9.0'), {
      ...release1(),
      'package.json': '{ "name": "uc-mcp-server", "version": "0.9.0" }\n',
    });
    await assert.rejects(
      runUpgrade({ packageFile: built.file, root: install, env: {}, dryRun: true }),
      /too old for this package: upgrade to 1\.0\.0 or later first/,
    );
  });

  it('a failure while applying rolls every change back', async () => {
    const install = copyTree(pristine, join(t.dir, 'install-fail'));
    const before = snapshot(install);
    let ticks = 0;
    await assert.rejects(
      runUpgrade({
        packageFile: built.file,
        root: install,
        env: {},
        progress: () => ({
          tick: () => {
            // Fails half way through: some files are already replaced, created or deleted.
            if (++ticks === 4) throw new Error('disk full');
          },
          done: () => undefined,
        }),
      }),
      (err: unknown) =>
        err instanceof UpgradeRefused && err.stage === 'apply' && /disk full.*rolled back/.test(err.message),
    );
    const after = snapshot(install);
    for (const path of Object.keys(after)) if (path.startsWith('upgrade/rollback')) delete after[path];
    assert.deepEqual(after, before, 'every file is as it was');
  });

  it('a failed pre-upgrade backup stops the upgrade before any change', async () => {
    const install = copyTree(pristine, join(t.dir, 'install-no-key'));
    rmSync(join(install, 'secrets', 'rsa_public.pem'));
    const before = snapshot(install);
    await assert.rejects(
      runUpgrade({
        packageFile: built.file,
        root: install,
        env: {},
        backup: async (stateDir) => createBackup({ stateDir }),
      }),
      (err: unknown) =>
        err instanceof UpgradeRefused &&
        err.stage === 'backup' &&
        /nothing was changed.*--no-backup/s.test(err.message),
    );
    const after = snapshot(install);
    delete after.backups; // createBackup makes the folder before it finds no key
    assert.deepEqual(after, before);
  });

  it('a server running on the installation stops the real run, not the dry run', async () => {
    const install = copyTree(pristine, join(t.dir, 'install-running'));
    // A live process other than this one stands in for the server its pid file names.
    const server = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 60000)'], { stdio: 'ignore' });
    try {
      writeFileSync(join(install, 'server.pid'), JSON.stringify({ pid: server.pid, start_ticks: null }));
      const before = snapshot(install);
      await runUpgrade({ packageFile: built.file, root: install, env: {}, dryRun: true });
      await assert.rejects(
        runUpgrade({ packageFile: built.file, root: install, env: {} }),
        new RegExp(`a server is running on this installation \\(pid ${server.pid}`),
      );
      assert.deepEqual(snapshot(install), before);
    } finally {
      server.kill();
    }
  });
});

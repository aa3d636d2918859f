// upgrade: applies a signed upgrade package (functional spec, Versioning 1-4). Run on the host, with the
// container stopped, from the installation's upgrade/ folder (upgrade/run_upgrade.ts) or the kernel CLI.
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createBackup } from '../../backup/create-backup.ts';
import { PROJECT_ROOT } from '../../paths.ts';
import {
  describePlan,
  rollback,
  runUpgrade,
  UPGRADE_DIR,
  UpgradeRefused,
  type UpgradeOutcome,
  type UpgradePlan,
} from '../../upgrade/index.ts';
import { EXIT, type CliCommand, type CliIo } from '../command.ts';
import { confirm } from '../confirm.ts';
import { rejectPositionals } from '../dispatch.ts';
import { createProgress, progressCallback } from '../progress.ts';

const HELP = `Applies a signed upgrade package (<product>-<version>.tar.gz with its .sig beside it), in this order:
verify the RSA-PSS signature of the package with the publisher keys this installation trusts (nothing
is extracted before); read and validate the package manifest and every file's SHA-512; check the
version (a downgrade, or the version already installed, is refused); make an encrypted pre-upgrade
backup of the state (unless --no-backup); replace, create and delete files (each atomically, with a
rollback record in upgrade/rollback/); merge .env: new keys are added with their defaults under a
"# added by upgrade <version>" comment, PROJECT_VERSION, PROJECT_NAME and PROJECT_CREATOR are
overwritten, every other key is kept.

Stop the container first; afterwards rebuild the image and start it again (docs/operations.md).

The package's SHA-512 is printed: compare it with the value the vendor publishes (DNS TXT record) and
stop if they differ, or give it with --expect-sha512 to have it compared.

--dry-run prints every file replaced, created, deleted or unchanged, the .env changes, the changelog
and the post-upgrade steps, from the same plan the real run applies, and changes nothing.

Without --package, the one package in <target>/upgrade/ is used.

Exit codes: 0 upgraded (or dry run done); 1 refused or failed (nothing changed, or every change rolled
back: the message says which); 2 usage error; 3 declined, or no terminal to confirm on and no --yes.`;

export const command: CliCommand = {
  name: 'upgrade',
  summary: 'verify and apply a signed upgrade package (--dry-run to preview)',
  help: HELP,
  options: [
    {
      name: 'package',
      type: 'string',
      description: 'the .tar.gz package (default: the one in <target>/upgrade/)',
    },
    { name: 'dry-run', type: 'boolean', description: 'show what the upgrade would do; change nothing' },
    { name: 'no-backup', type: 'boolean', description: 'skip the encrypted pre-upgrade backup' },
    { name: 'yes', short: 'y', type: 'boolean', description: 'do not ask for confirmation' },
    {
      name: 'expect-sha512',
      type: 'string',
      description: 'the published SHA-512 of the package; refused when different',
    },
    { name: 'target', type: 'string', description: `the installation to upgrade (default: ${PROJECT_ROOT})` },
    {
      name: 'rollback',
      type: 'string',
      description: 'undo an upgrade from its record folder in upgrade/rollback/',
    },
  ],

  async run({ values, positionals }, io) {
    const stray = rejectPositionals(this.name, positionals, io);
    if (stray !== undefined) return stray;
    const target = resolve(io.cwd, typeof values.target === 'string' ? values.target : PROJECT_ROOT);
    const yes = values.yes === true;
    if (typeof values.rollback === 'string') return undo(resolve(io.cwd, values.rollback), yes, io);

    const packageFile =
      typeof values.package === 'string' ? resolve(io.cwd, values.package) : findPackage(target, io);
    if (packageFile === undefined) return EXIT.USAGE;
    const expectSha512 = typeof values['expect-sha512'] === 'string' ? values['expect-sha512'] : undefined;
    const dryRun = values['dry-run'] === true;
    try {
      const outcome = await runUpgrade({
        packageFile,
        root: target,
        env: io.env,
        dryRun,
        ...(expectSha512 !== undefined ? { expectSha512 } : {}),
        ...(values['no-backup'] === true ? {} : { backup: (stateDir) => backupWithProgress(stateDir, io) }),
        confirm: (plan) => {
          io.out(describePlan(plan));
          io.out(checksumNotice(plan, expectSha512));
          if (expectSha512 === undefined && yes)
            io.err('upgrade: warning: --yes without --expect-sha512: the checksum was not compared.\n');
          return confirm(io, `Apply the upgrade ${plan.from} -> ${plan.to} to ${plan.root}?`, { yes });
        },
        progress: (steps) => createProgress(io, 'applying', steps),
      });
      return report(outcome, expectSha512, io);
    } catch (err) {
      if (!(err instanceof UpgradeRefused)) throw err;
      io.err(`upgrade refused (${err.stage}): ${err.message}\n`);
      return EXIT.FAILED;
    }
  },
};

function report(outcome: UpgradeOutcome, expectSha512: string | undefined, io: CliIo): number {
  if (outcome.status === 'dry-run') {
    io.out(describePlan(outcome.plan));
    io.out(checksumNotice(outcome.plan, expectSha512));
    io.out('Dry run: nothing was changed.\n');
    return EXIT.OK;
  }
  if (outcome.status === 'declined') {
    io.err('upgrade: declined; nothing was changed.\n');
    return EXIT.DECLINED;
  }
  const { plan, result, backup } = outcome;
  io.out(
    [
      '',
      `Upgraded ${plan.product} ${plan.from} -> ${plan.to}.`,
      `  files: ${result.replaced.length} replaced, ${result.created.length} created, ${result.deleted.length} deleted`,
      `  .env: ${result.envWritten ? `merged (${plan.env.file})` : 'unchanged'}`,
      `  pre-upgrade backup: ${backup ? backup.file : 'skipped (--no-backup)'}`,
      `  rollback record: ${result.rollbackDir}`,
      `  integrity of the upgraded tree: ${outcome.integrity}` +
        (outcome.integrity === 'valid'
          ? ''
          : ' (details: node --import tsx scripts/update_manifest.ts --check)'),
      '',
      'Now:',
      ...plan.postUpgrade.map((s, i) => `  ${i + 1}. ${s}`),
      '',
    ].join('\n'),
  );
  return EXIT.OK;
}

function checksumNotice(plan: UpgradePlan, expected: string | undefined): string {
  return expected !== undefined
    ? 'The SHA-512 matches the published value given with --expect-sha512.\n'
    : 'Compare the SHA-512 above with the value the vendor publishes (DNS TXT record). If they differ, STOP.\n';
}

async function backupWithProgress(stateDir: string, io: CliIo): Promise<{ id: string; file: string }> {
  const progress = progressCallback(io, 'pre-upgrade backup');
  const b = await createBackup({ stateDir, onProgress: (done, total) => progress({ done, total }) });
  io.out(`pre-upgrade backup: ${b.file}\n`);
  return { id: b.id, file: b.file };
}

/** The one package in <target>/upgrade/; a usage error (printed) when there is none or several. */
function findPackage(target: string, io: CliIo): string | undefined {
  const dir = join(target, UPGRADE_DIR);
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith('.tar.gz'));
  } catch {
    // reported below as "none"
  }
  if (names.length === 1) return join(dir, names[0] as string);
  io.err(
    names.length === 0
      ? `upgrade: no package in ${dir}; give --package <file>\n`
      : `upgrade: several packages in ${dir} (${names.join(', ')}); choose one with --package\n`,
  );
  return undefined;
}

async function undo(dir: string, yes: boolean, io: CliIo): Promise<number> {
  io.out(
    `Rolling back from ${dir}: created files are removed, replaced and deleted ones and .env restored.\n`,
  );
  if (!(await confirm(io, 'Undo this upgrade?', { yes }))) {
    io.err('upgrade: declined; nothing was changed.\n');
    return EXIT.DECLINED;
  }
  let failed: string[];
  try {
    failed = await rollback(dir);
  } catch (err) {
    io.err(`upgrade: cannot read the rollback record in ${dir}: ${(err as Error).message}\n`);
    return EXIT.FAILED;
  }
  if (failed.length > 0) {
    io.err(`upgrade: could not restore ${failed.join(', ')}\n`);
    return EXIT.FAILED;
  }
  io.out('Rolled back. Rebuild the image and start the container again.\n');
  return EXIT.OK;
}

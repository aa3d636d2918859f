// show_tech: the diagnostic bundle an operator sends to support (functional spec, Versioning 8). It
// runs without the server (and beside a running one): everything is read from the state directory and
// the shipped tree, through an allowlist of what may leave the installation.

import { resolve } from 'node:path';
import { EXIT, type CliCommand } from '../command.ts';
import { rejectPositionals } from '../dispatch.ts';
import { createProgress } from '../progress.ts';
import { BUNDLE_FILES, BundleLeakError, buildSupportBundle, bundleSteps } from '../../support/show-tech.ts';
import { operatorSettings } from '../../support/settings.ts';
import { STATE_DIR_OPTION } from '../common-options.ts';

const HELP = `Collects a diagnostic bundle, show_tech_<hostname>_<UTC timestamp>.zip (or a folder with --no-zip):
  ${BUNDLE_FILES.summary}       what the bundle holds, the configuration verdict, whether the server runs
  ${BUNDLE_FILES.versions}      server, runtime (Node.js, OpenSSL) and OS versions
  ${BUNDLE_FILES.env}  .env with every secret-named key and every secret-looking value redacted
  ${BUNDLE_FILES.integrity}     manifest verification result, computed now
  ${BUNDLE_FILES.license}       license state (never the license file)
  ${BUNDLE_FILES.clients}       client names only
  ${BUNDLE_FILES.dependencies}  declared and installed dependency versions
  ${BUNDLE_FILES.appLog}, ${BUNDLE_FILES.auditLog}  the current logs, redacted again (unless --no-logs)
It never holds private keys, JWTs, OAuth client secrets, encrypted backups, managed-node credentials or
secrets/license.jwt. Before anything is written, every byte is searched for the secrets this installation
holds (keys, tokens, client secrets, vault files, license, secret .env values) and for private-key and
JWT shapes; a hit stops the command and nothing is written. The bundle is created with mode 0600.

Exit codes: 0 written; 1 failed (nothing written); 2 usage error.`;

export const command: CliCommand = {
  name: 'show_tech',
  summary: 'collect a diagnostic bundle; options --output <dir>, --no-logs, --no-zip',
  help: HELP,
  options: [
    {
      name: 'output',
      type: 'string',
      description: 'folder to write the bundle to (default: the state directory)',
    },
    { name: 'no-logs', type: 'boolean', description: 'leave app.log and audit.log out' },
    { name: 'no-zip', type: 'boolean', description: 'write a folder instead of a .zip' },
    STATE_DIR_OPTION,
  ],
  async run({ values, positionals }, io) {
    const stray = rejectPositionals('show_tech', positionals, io);
    if (stray !== undefined) return stray;
    const str = (name: string): string | undefined => {
      const v = values[name];
      return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
    };
    const settings = operatorSettings(io, str('state-dir'));
    if (settings.configError) {
      io.err(`show_tech: the configuration does not validate; collecting anyway (see summary.json).\n`);
    }
    const logs = values['no-logs'] !== true;
    const zip = values['no-zip'] !== true;
    const outputDir = resolve(io.cwd, str('output') ?? settings.paths.root);

    const progress = createProgress(io, 'Collecting diagnostics', bundleSteps(logs));
    let hashing: ReturnType<typeof createProgress> | null = null;
    try {
      const bundle = await buildSupportBundle({
        settings,
        outputDir,
        logs,
        zip,
        onStep: () => {
          hashing?.done();
          hashing = null;
          progress.tick();
        },
        onHashProgress: (p) => {
          hashing ??= createProgress(io, '  hashing shipped files', p.total);
          hashing.tick(1);
        },
      });
      progress.done();
      io.out(`Support bundle written: ${bundle.path}\n  ${bundle.files.join(', ')}\n`);
      return EXIT.OK;
    } catch (err) {
      progress.done();
      if (err instanceof BundleLeakError) {
        io.err(`show_tech: ${err.message}. Please report this: a secret reached a file it should not.\n`);
      } else {
        io.err(`show_tech: ${(err as Error).message}\n`);
      }
      return EXIT.FAILED;
    }
  },
};

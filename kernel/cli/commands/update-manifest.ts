// update_manifest: regenerate the SHA-512 integrity manifest and sign it (functional spec, operator
// scripts). Usable as a git pre-commit hook; the container build runs it with --check. See
// docs/integrity-and-license.md.
import { resolve } from 'node:path';
import { formatIntegrityReport } from '../../integrity/format.ts';
import { verifyTree } from '../../integrity/verify.ts';
import { PROJECT_ROOT } from '../../paths.ts';
import { loadVendorPrivateKey } from '../../vendor/keys.ts';
import { findInstalledPublisher, signManifest } from '../../vendor/manifest.ts';
import { EXIT, type CliCommand } from '../command.ts';
import { rejectPositionals } from '../dispatch.ts';
import { progressCallback } from '../progress.ts';

export const command: CliCommand = {
  name: 'update_manifest',
  summary: 'regenerate the SHA-512 integrity manifest (pre-commit hook); --check verifies only',
  help: `Regenerates manifests/manifest.json (SHA-512 of every shipped file) for the current tree and signs it
into manifests/manifest.sig (RSA-PSS, SHA-512) with the vendor private key. The key is never printed.

Exit codes:
  0  manifest written and verified (with --check: the tree is valid)
  1  with --check: the tree is not valid; otherwise signing or the verification after it failed
  2  usage error, or no key available (give --key or set UPDATE_MANIFEST_KEY)

Pre-commit hook (.git/hooks/pre-commit, for maintainers who hold the key):
  node --import tsx scripts/update_manifest.ts && git add manifests/manifest.json manifests/manifest.sig`,
  options: [
    {
      name: 'key',
      type: 'string',
      description:
        'vendor private key (PEM file). Default: env UPDATE_MANIFEST_KEY (a path, or the PEM itself)',
    },
    {
      name: 'publisher',
      type: 'string',
      description: 'publisher id; default: the key in manifests/publishers/ that matches the private key',
    },
    { name: 'root', type: 'string', description: `project tree to sign or check (default: ${PROJECT_ROOT})` },
    {
      name: 'check',
      type: 'boolean',
      description: 'verify only: print the status and every affected file with both hashes; write nothing',
    },
    { name: 'json', type: 'boolean', description: 'with --check: print the report as JSON' },
  ],

  async run({ values, positionals }, io) {
    const stray = rejectPositionals(this.name, positionals, io);
    if (stray !== undefined) return stray;
    const root = resolve(io.cwd, (values.root as string | undefined) ?? PROJECT_ROOT);

    if (values.check === true) {
      const { report } = await verifyTree(root, { onProgress: progressCallback(io, 'hashing') });
      io.out(values.json === true ? `${JSON.stringify(report, null, 2)}\n` : formatIntegrityReport(report));
      return report.status === 'valid' ? EXIT.OK : EXIT.FAILED;
    }

    const keySource = (values.key as string | undefined) ?? io.env.UPDATE_MANIFEST_KEY;
    if (!keySource) {
      io.err(
        'update_manifest: no signing key. Give --key <private.pem> or set UPDATE_MANIFEST_KEY ' +
          '(a path or the PEM). Contributors without the vendor key do not install this hook.\n',
      );
      return EXIT.USAGE;
    }
    let privateKey;
    try {
      // A path is relative to where the operator runs the command; a PEM is used as given.
      const pemOrPath = keySource.trimStart().startsWith('-----BEGIN')
        ? keySource
        : resolve(io.cwd, keySource);
      privateKey = loadVendorPrivateKey(pemOrPath);
    } catch (err) {
      io.err(`update_manifest: cannot use the signing key: ${(err as Error).message}\n`);
      return EXIT.USAGE;
    }
    const publisher =
      (values.publisher as string | undefined) ?? (await findInstalledPublisher(root, privateKey));
    if (!publisher) {
      io.err(
        'update_manifest: the key matches no installed manifests/publishers/<id>.pem; install its public key ' +
          'first (scripts/vendor.ts sign-manifest --install-public) or give --publisher\n',
      );
      return EXIT.USAGE;
    }
    try {
      const { files } = await signManifest({
        root,
        privateKey,
        publisher,
        onProgress: progressCallback(io, 'hashing'),
      });
      const { report } = await verifyTree(root);
      if (report.status !== 'valid') {
        io.err(`update_manifest: signed, but the tree does not verify:\n${formatIntegrityReport(report)}`);
        return EXIT.FAILED;
      }
      io.out(`manifest signed by ${publisher}: ${files} files; verification: valid\n`);
      return EXIT.OK;
    } catch (err) {
      io.err(`update_manifest: ${(err as Error).message}\n`);
      return EXIT.FAILED;
    }
  },
};

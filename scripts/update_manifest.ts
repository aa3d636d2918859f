// update_manifest: regenerate the SHA-512 integrity manifest and sign it (functional spec, operator
// scripts). Usable as a git pre-commit hook; see docs/integrity-and-license.md.
import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { formatIntegrityReport } from '../kernel/integrity/format.ts';
import type { HashProgress } from '../kernel/integrity/hash.ts';
import { verifyTree } from '../kernel/integrity/verify.ts';
import { PROJECT_ROOT } from '../kernel/paths.ts';
import { findInstalledPublisher, signManifest } from '../kernel/vendor/manifest.ts';
import { loadVendorPrivateKey } from '../kernel/vendor/keys.ts';

/** Exit codes, documented in --help and docs/integrity-and-license.md. */
const EXIT = { ok: 0, notValid: 1, usage: 2 } as const;

const HELP = `Usage: node --import tsx scripts/update_manifest.ts [options]

Regenerates manifests/manifest.json (SHA-512 of every shipped file) for the current tree and signs it
into manifests/manifest.sig (RSA-PSS, SHA-512) with the vendor private key.

Options:
  --key <file>        vendor private key (PEM). Default: env UPDATE_MANIFEST_KEY (a path, or the PEM itself)
  --publisher <id>    publisher id; default: the key in manifests/publishers/ that matches the private key
  --root <dir>        project tree to sign or check (default: ${PROJECT_ROOT})
  --check             verify only: print the status and every affected file with both hashes; write nothing
  --json              with --check: print the report as JSON
  -h, --help          this text

Exit codes:
  0  manifest written and verified (with --check: the tree is valid)
  1  with --check: the tree is not valid; otherwise signing or the verification after it failed
  2  usage error, or no key available (give --key or set UPDATE_MANIFEST_KEY)

Pre-commit hook (.git/hooks/pre-commit, for maintainers who hold the key):
  node --import tsx scripts/update_manifest.ts && git add manifests/manifest.json manifests/manifest.sig
`;

function progress(label: string): (p: HashProgress) => void {
  const tty = process.stderr.isTTY;
  return ({ done, total }) => {
    if (tty) process.stderr.write(`\r${label} ${done}/${total}${done === total ? '\n' : ''}`);
    else if (done === total || done % 500 === 0) process.stderr.write(`${label} ${done}/${total}\n`);
  };
}

async function main(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: argv,
      options: {
        key: { type: 'string' },
        publisher: { type: 'string' },
        root: { type: 'string' },
        check: { type: 'boolean', default: false },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (err) {
    process.stderr.write(`update_manifest: ${(err as Error).message}\n\n${HELP}`);
    return EXIT.usage;
  }
  if (args.help) {
    process.stdout.write(HELP);
    return EXIT.ok;
  }
  const root = resolve(args.root ?? PROJECT_ROOT);

  if (args.check) {
    const { report } = await verifyTree(root, { onProgress: progress('hashing') });
    process.stdout.write(args.json ? `${JSON.stringify(report, null, 2)}\n` : formatIntegrityReport(report));
    return report.status === 'valid' ? EXIT.ok : EXIT.notValid;
  }

  const keySource = args.key ?? process.env.UPDATE_MANIFEST_KEY;
  if (!keySource) {
    process.stderr.write(
      'update_manifest: no signing key. Give --key <private.pem> or set UPDATE_MANIFEST_KEY ' +
        '(a path or the PEM). Contributors without the vendor key do not install this hook.\n',
    );
    return EXIT.usage;
  }
  let privateKey;
  try {
    privateKey = loadVendorPrivateKey(keySource);
  } catch (err) {
    process.stderr.write(`update_manifest: cannot use the signing key: ${(err as Error).message}\n`);
    return EXIT.usage;
  }
  const publisher = args.publisher ?? (await findInstalledPublisher(root, privateKey));
  if (!publisher) {
    process.stderr.write(
      'update_manifest: the key matches no installed manifests/publishers/<id>.pem; install its public key ' +
        'first (scripts/vendor.ts sign-manifest --install-public) or give --publisher\n',
    );
    return EXIT.usage;
  }
  try {
    const { files } = await signManifest({ root, privateKey, publisher, onProgress: progress('hashing') });
    const { report } = await verifyTree(root);
    if (report.status !== 'valid') {
      process.stderr.write(
        `update_manifest: signed, but the tree does not verify:\n${formatIntegrityReport(report)}`,
      );
      return EXIT.notValid;
    }
    process.stdout.write(`manifest signed by ${publisher}: ${files} files; verification: valid\n`);
    return EXIT.ok;
  } catch (err) {
    process.stderr.write(`update_manifest: ${(err as Error).message}\n`);
    return EXIT.notValid;
  }
}

process.exitCode = await main(process.argv.slice(2));

// The vendor-side command: key pair, manifest, bundle and license signing, and upgrade packages. It runs
// where the vendor private key lives, never on a customer's server. See docs/integrity-and-license.md
// and docs/operations.md (Upgrades).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';
import { PROJECT_ROOT } from '../kernel/paths.ts';
import { writeFileAtomic } from '../kernel/store/atomic-file.ts';
import { signBundle } from '../kernel/vendor/bundle.ts';
import {
  generateVendorKeyPair,
  isInside,
  loadVendorPrivateKey,
  writeVendorKeyPair,
} from '../kernel/vendor/keys.ts';
import { issueLicense, parseExpiry, parseHostnames, parseProducts } from '../kernel/vendor/license.ts';
import { signManifest } from '../kernel/vendor/manifest.ts';
import { buildUpgradePackage } from '../kernel/vendor/upgrade-package.ts';

const EXIT = { ok: 0, failed: 1, usage: 2 } as const;

const COMMANDS: Record<string, { usage: string; options: ParseArgsConfig['options'] }> = {
  keygen: {
    usage: `keygen --out <dir> [--id <publisher-id>] [--inside-repo]
    Creates an RSA-4096 vendor key pair: <dir>/<id>.private.pem (0600) and <dir>/<id>.pem (public, to
    install as manifests/publishers/<id>.pem). Refuses a directory inside the project unless
    --inside-repo is given: a vendor private key must never be committed. Never overwrites a key.`,
    options: { out: { type: 'string' }, id: { type: 'string' }, 'inside-repo': { type: 'boolean' } },
  },
  'sign-manifest': {
    usage: `sign-manifest --key <private.pem> --publisher <id> [--root <dir>] [--install-public]
    Writes manifests/manifest.json and manifest.sig for the tree (default: this checkout). With
    --install-public, first installs the public key as manifests/publishers/<id>.pem.`,
    options: {
      key: { type: 'string' },
      publisher: { type: 'string' },
      root: { type: 'string' },
      'install-public': { type: 'boolean' },
    },
  },
  'sign-bundle': {
    usage: `sign-bundle --key <private.pem> --publisher <id> [--version <v>] <plugins/dir>
    Writes bundle.json (SHA-512 of every file of the bundle) and bundle.sig into the bundle folder.
    The version defaults to the one in an existing bundle.json.`,
    options: { key: { type: 'string' }, publisher: { type: 'string' }, version: { type: 'string' } },
  },
  'issue-license': {
    usage: `issue-license --key <private.pem> --publisher <id> --customer <sub> --hostname <host>[,<host>...]...
              --products cucm,imp,cuc --tier <tier> --expires <ISO date | +30d> [--grace-days 30] [--out <file>]
    Signs a license (JWT, PS512, header kid = publisher id). Writes it to --out (0600) or prints it.
    Several hosts (--hostname repeated, or a comma list; at most 64) make one license for every instance
    of a scale-out deployment: claims hostname (the first) and hostnames (all).`,
    options: {
      key: { type: 'string' },
      publisher: { type: 'string' },
      customer: { type: 'string' },
      hostname: { type: 'string', multiple: true },
      products: { type: 'string' },
      tier: { type: 'string' },
      expires: { type: 'string' },
      'grace-days': { type: 'string' },
      out: { type: 'string' },
    },
  },
  'upgrade-package': {
    usage: `upgrade-package --from <release tree> --version <x.y.z> --key <private.pem> --out <dir>
              [--previous <previous release tree>] [--min-from <x.y.z>] [--changelog <file>]
              [--env-defaults <.env.example>] [--post-step <text>]...
    Builds <out>/<product>-<version>.tar.gz (every shipped file, its integrity manifest signed afresh,
    upgrade-manifest.json), its RSA-PSS signature .sig, its SHA-512 .sha512 (the value to publish in
    DNS TXT) and the runner run_upgrade.ts. Files of --previous that the release no longer ships are
    deleted by the upgrade; --min-from defaults to the previous release's version. The key must be an
    installed publisher of the release tree.`,
    options: {
      from: { type: 'string' },
      version: { type: 'string' },
      key: { type: 'string' },
      out: { type: 'string' },
      previous: { type: 'string' },
      'min-from': { type: 'string' },
      changelog: { type: 'string' },
      'env-defaults': { type: 'string' },
      'post-step': { type: 'string', multiple: true },
    },
  },
};

const HELP = `Usage: node --import tsx scripts/vendor.ts <command> [options]

Commands:
${Object.values(COMMANDS)
  .map((c) => `  ${c.usage}`)
  .join('\n\n')}

  Every command accepts -h/--help. Keys are RSA-4096; signatures are RSA-PSS with SHA-512.
  Exit codes: 0 done; 1 the operation failed; 2 usage error.
`;

class UsageError extends Error {}

function need(values: Record<string, unknown>, name: string): string {
  const v = values[name];
  if (typeof v !== 'string' || v.trim() === '') throw new UsageError(`--${name} is required`);
  return v;
}

async function run(command: string, values: Record<string, unknown>, positionals: string[]): Promise<void> {
  switch (command) {
    case 'keygen': {
      const out = resolve(need(values, 'out'));
      if (isInside(out, PROJECT_ROOT) && values['inside-repo'] !== true)
        throw new UsageError(
          `${out} is inside the project (${PROJECT_ROOT}): a vendor private key must not end up in the ` +
            'repository. Choose another directory, or add --inside-repo if you really mean it.',
        );
      const id = typeof values.id === 'string' ? values.id : 'vendor';
      process.stderr.write('generating an RSA-4096 key pair...\n');
      const { privatePath, publicPath } = writeVendorKeyPair(out, id, await generateVendorKeyPair());
      process.stdout.write(
        `private key: ${privatePath} (0600: keep it offline)\npublic key:  ${publicPath}\n`,
      );
      return;
    }
    case 'sign-manifest': {
      const root = resolve(typeof values.root === 'string' ? values.root : PROJECT_ROOT);
      const { files } = await signManifest({
        root,
        privateKey: loadVendorPrivateKey(need(values, 'key')),
        publisher: need(values, 'publisher'),
        installPublic: values['install-public'] === true,
        onProgress: ({ done, total }) => {
          if (done === total || done % 500 === 0) process.stderr.write(`hashed ${done}/${total}\n`);
        },
      });
      process.stdout.write(`signed ${root}/manifests/manifest.json: ${files} files\n`);
      return;
    }
    case 'sign-bundle': {
      const dir = positionals[0];
      if (!dir) throw new UsageError('the bundle folder is required');
      const { bundle, files } = await signBundle({
        dir,
        privateKey: loadVendorPrivateKey(need(values, 'key')),
        publisher: need(values, 'publisher'),
        ...(typeof values.version === 'string' ? { version: values.version } : {}),
      });
      process.stdout.write(
        `signed bundle ${bundle.id} ${bundle.version} by ${bundle.publisher}: ${files} files\n`,
      );
      return;
    }
    case 'issue-license': {
      let expiresAt: Date;
      let products: string[];
      let hostnames: string[];
      try {
        expiresAt = parseExpiry(need(values, 'expires'));
        products = parseProducts(need(values, 'products'));
        const given = Array.isArray(values.hostname) ? values.hostname.map(String) : [];
        if (given.every((h) => h.trim() === '')) throw new Error('--hostname is required');
        hostnames = parseHostnames(given);
      } catch (err) {
        throw new UsageError((err as Error).message);
      }
      const grace = typeof values['grace-days'] === 'string' ? values['grace-days'] : '30';
      if (!/^\d{1,3}$/.test(grace)) throw new UsageError('--grace-days must be a whole number of days');
      const jwt = await issueLicense({
        privateKey: loadVendorPrivateKey(need(values, 'key')),
        publisher: need(values, 'publisher'),
        customer: need(values, 'customer'),
        hostname: hostnames,
        products,
        tier: need(values, 'tier'),
        expiresAt,
        graceDays: Number(grace),
      });
      if (typeof values.out === 'string') {
        writeFileAtomic(resolve(values.out), `${jwt}\n`, 0o600);
        process.stderr.write(
          `license for ${String(values.customer)} (${hostnames.length === 1 ? 'host' : 'hosts'} ` +
            `${hostnames.join(', ')}) written to ${resolve(values.out)}\n`,
        );
      } else process.stdout.write(`${jwt}\n`);
      return;
    }
    case 'upgrade-package': {
      const built = await buildUpgradePackage({
        from: need(values, 'from'),
        version: need(values, 'version'),
        privateKey: loadVendorPrivateKey(need(values, 'key')),
        out: need(values, 'out'),
        ...(typeof values.previous === 'string' ? { previous: values.previous } : {}),
        ...(typeof values['min-from'] === 'string' ? { minFromVersion: values['min-from'] } : {}),
        ...(typeof values.changelog === 'string'
          ? { changelog: readFileSync(values.changelog, 'utf8') }
          : {}),
        ...(typeof values['env-defaults'] === 'string'
          ? { envExample: readFileSync(values['env-defaults'], 'utf8') }
          : {}),
        ...(Array.isArray(values['post-step']) ? { postUpgrade: values['post-step'].map(String) } : {}),
      });
      process.stdout.write(
        `package:   ${built.file}\nsignature: ${built.signatureFile}\nrunner:    ${built.runnerFile}\n` +
          `SHA-512 (publish it in DNS TXT): ${built.sha512}\n`,
      );
      return;
    }
  }
}

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '-h' || command === '--help' || command === 'help') {
    process.stdout.write(HELP);
    return command ? EXIT.ok : EXIT.usage;
  }
  const spec = COMMANDS[command];
  if (!spec) {
    process.stderr.write(`vendor: unknown command "${command}"\n\n${HELP}`);
    return EXIT.usage;
  }
  try {
    const { values, positionals } = parseArgs({
      args: rest,
      options: { ...spec.options, help: { type: 'boolean', short: 'h' } },
      strict: true,
      allowPositionals: command === 'sign-bundle',
    });
    if (values.help) {
      process.stdout.write(`Usage: node --import tsx scripts/vendor.ts ${spec.usage}\n`);
      return EXIT.ok;
    }
    await run(command, values, positionals);
    return EXIT.ok;
  } catch (err) {
    const usage = err instanceof UsageError || (err as { code?: string }).code?.startsWith('ERR_PARSE_ARGS');
    process.stderr.write(`vendor ${command}: ${(err as Error).message}\n`);
    if (usage) process.stderr.write(`Usage: node --import tsx scripts/vendor.ts ${spec.usage}\n`);
    return usage ? EXIT.usage : EXIT.failed;
  }
}

process.exitCode = await main(process.argv.slice(2));

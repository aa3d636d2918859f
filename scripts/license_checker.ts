// license_checker: decode and show secrets/license.jwt without starting the server (functional spec,
// operator scripts). The verdict uses the publisher keys the server would trust.
import { readFileSync } from 'node:fs';
import { hostname as osHostname } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { parse as parseDotenv } from 'dotenv';
import { loadConfig, type LoadedConfig } from '../kernel/config/load.ts';
import { readTrustRoot, usableKeys } from '../kernel/integrity/trust.ts';
import { INTEGRITY_MODES, type IntegrityMode } from '../kernel/integrity/types.ts';
import { inspectLicense } from '../kernel/license/evaluate.ts';
import { formatLicense } from '../kernel/license/format.ts';
import { PROJECT_ROOT } from '../kernel/paths.ts';

const EXIT = { usable: 0, notUsable: 1, usage: 2 } as const;

const HELP = `Usage: node --import tsx scripts/license_checker.ts [options]

Decodes and verifies the license without starting the server: customer, bound hostname (and whether it
is this host), products, tier, issue and expiry dates, grace period, the computed state (VALID, GRACE,
EXPIRED, INVALID) and the signature verdict against the trusted publisher keys.

Options:
  --file <path>       license file (default: $STATE_DIR/secrets/license.jwt; STATE_DIR from the environment or .env)
  --hostname <name>   evaluate for another host name (default: this host, ${osHostname()})
  --mode <mode>       enforce | warn: which publisher keys to trust, as the server would
                      (default: INTEGRITY_MODE from the environment or .env, else enforce)
  --root <dir>        project tree holding manifests/ (default: ${PROJECT_ROOT})
  --json              machine-readable output
  -h, --help          this text

Exit codes: 0 VALID or GRACE; 1 EXPIRED or INVALID; 2 usage error.
`;

function settings(): { loaded: LoadedConfig | null; dotenv: Record<string, string> } {
  try {
    const loaded = loadConfig(process.env);
    const dotenv = loaded.envFile ? parseDotenv(readFileSync(loaded.envFile)) : {};
    return { loaded, dotenv };
  } catch (err) {
    // A diagnostic tool still answers when an unrelated setting is wrong.
    process.stderr.write(
      `license_checker: configuration not usable (${(err as Error).message}); using defaults\n`,
    );
    return { loaded: null, dotenv: {} };
  }
}

async function main(argv: string[]): Promise<number> {
  let args;
  try {
    args = parseArgs({
      args: argv,
      options: {
        file: { type: 'string' },
        hostname: { type: 'string' },
        mode: { type: 'string' },
        root: { type: 'string' },
        json: { type: 'boolean', default: false },
        help: { type: 'boolean', short: 'h', default: false },
      },
      strict: true,
      allowPositionals: false,
    }).values;
  } catch (err) {
    process.stderr.write(`license_checker: ${(err as Error).message}\n\n${HELP}`);
    return EXIT.usage;
  }
  if (args.help) {
    process.stdout.write(HELP);
    return EXIT.usable;
  }
  const { loaded, dotenv } = settings();
  const mode = (args.mode ??
    process.env.INTEGRITY_MODE ??
    dotenv.INTEGRITY_MODE ??
    'enforce') as IntegrityMode;
  if (!INTEGRITY_MODES.includes(mode)) {
    process.stderr.write(`license_checker: mode must be one of ${INTEGRITY_MODES.join(', ')}\n`);
    return EXIT.usage;
  }
  const stateDir = loaded?.stateDir ?? resolve(process.env.STATE_DIR || PROJECT_ROOT);
  const file = resolve(args.file ?? join(stateDir, 'secrets', 'license.jwt'));
  const host = args.hostname ?? osHostname();

  const trust = await readTrustRoot(resolve(args.root ?? PROJECT_ROOT));
  const keys = usableKeys(trust, mode);
  let text: string | null = null;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
      process.stderr.write(`license_checker: cannot read ${file}: ${(err as Error).message}\n`);
      return EXIT.notUsable;
    }
  }
  const ev = await inspectLicense(text, keys, host, Date.now());
  const ctx = {
    file,
    hostname: host,
    mode,
    integrity: trust.status,
    keys: keys.map((k) => ({ id: k.id, fingerprint: k.fingerprint, vouched: k.vouched })),
  };
  if (args.json) process.stdout.write(`${JSON.stringify({ ...ctx, ...ev }, null, 2)}\n`);
  else process.stdout.write(formatLicense(ev, ctx));
  return ev.status.state === 'VALID' || ev.status.state === 'GRACE' ? EXIT.usable : EXIT.notUsable;
}

process.exitCode = await main(process.argv.slice(2));

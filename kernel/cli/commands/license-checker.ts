// license_checker: decode and show secrets/license.jwt without starting the server (functional spec,
// operator scripts). The verdict uses the publisher keys the server would trust. The license itself
// is never printed.
import { readFileSync } from 'node:fs';
import { hostname as osHostname } from 'node:os';
import { join, resolve } from 'node:path';
import { readTrustRoot, usableKeys } from '../../integrity/trust.ts';
import { inspectLicense } from '../../license/evaluate.ts';
import { formatLicense } from '../../license/format.ts';
import { PROJECT_ROOT } from '../../paths.ts';
import { EXIT, type CliCommand } from '../command.ts';
import { STATE_DIR_OPTION } from '../common-options.ts';
import { rejectPositionals } from '../dispatch.ts';
import { integrityMode, readSettings } from '../settings.ts';

export const command: CliCommand = {
  name: 'license_checker',
  summary: 'decode and show secrets/license.jwt without starting the server',
  help: `Shows the customer, bound hostname or hostnames (and whether this host is among them), products,
tier, issue and expiry dates, grace period, the computed state (VALID, GRACE, EXPIRED, INVALID) and the
signature verdict against the trusted publisher keys. STATE_DIR (or --state-dir) and INTEGRITY_MODE come from the
environment or .env.

Exit codes: 0 VALID or GRACE; 1 EXPIRED or INVALID; 2 usage error.`,
  options: [
    STATE_DIR_OPTION,
    {
      name: 'file',
      type: 'string',
      description: 'license file (default: $STATE_DIR/secrets/license.jwt)',
    },
    {
      name: 'hostname',
      type: 'string',
      description: `evaluate for another host name (default: this host, ${osHostname()})`,
    },
    {
      name: 'mode',
      type: 'string',
      description:
        'enforce | warn: which publisher keys to trust, as the server would (default: INTEGRITY_MODE, else enforce)',
    },
    {
      name: 'root',
      type: 'string',
      description: `project tree holding manifests/ (default: ${PROJECT_ROOT})`,
    },
    { name: 'json', type: 'boolean', description: 'machine-readable output' },
  ],

  async run({ values, positionals }, io) {
    const stray = rejectPositionals(this.name, positionals, io);
    if (stray !== undefined) return stray;
    const settings = readSettings(io, this.name, values['state-dir'] as string | undefined);
    const mode = integrityMode(io, this.name, settings, values.mode as string | undefined);
    if (mode === undefined) return EXIT.USAGE;
    const stateDir = settings.stateDir;
    const file = resolve(
      io.cwd,
      (values.file as string | undefined) ?? join(stateDir, 'secrets', 'license.jwt'),
    );
    const host = (values.hostname as string | undefined) ?? osHostname();

    const trust = await readTrustRoot(resolve(io.cwd, (values.root as string | undefined) ?? PROJECT_ROOT));
    const keys = usableKeys(trust, mode);
    let text: string | null = null;
    try {
      text = readFileSync(file, 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') {
        io.err(`license_checker: cannot read ${file}: ${(err as Error).message}\n`);
        return EXIT.FAILED;
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
    io.out(values.json === true ? `${JSON.stringify({ ...ctx, ...ev }, null, 2)}\n` : formatLicense(ev, ctx));
    return ev.status.state === 'VALID' || ev.status.state === 'GRACE' ? EXIT.OK : EXIT.FAILED;
  },
};

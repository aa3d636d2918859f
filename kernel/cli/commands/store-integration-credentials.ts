// store_integration_credentials (test utility of the spec): stores a managed node's credentials,
// encrypted, in the vault of the integration-test client, for the integration tests against real
// nodes (run_tests). The password never comes from the command line, where `ps` and shell history
// would show it: it is typed without echo, piped with --password-stdin, or taken from a variable.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import {
  KINDS_BY_PRODUCT,
  normaliseFingerprint,
  normaliseHost,
  PRODUCTS,
  type CredentialKind,
  type CredentialSecret,
  type Product,
} from '../../vault/index.ts';
import { EXIT, type CliCommand, type CliIo } from '../command.ts';
import { confirm } from '../confirm.ts';
import { MAIN } from '../help.ts';
import { rejectPositionals } from '../dispatch.ts';
import { DEFAULT_INTEGRATION_CLIENT, integrationTarget, openClientVault } from '../integration-vault.ts';
import { passwordFromStdin, passwordFromTerminal } from '../password-input.ts';

/** The variable read when neither --password-stdin nor --password-env is given. */
export const PASSWORD_ENV = 'UC_INTEGRATION_PASSWORD';

type Values = Record<string, string | boolean | undefined>;

/** The password, or an exit code after a message. Never echoed, never in a message. */
async function readPassword(io: CliIo, values: Values, name: string): Promise<string | number> {
  const variable = (values['password-env'] as string | undefined) ?? PASSWORD_ENV;
  const fromEnv = values['password-stdin'] === true ? undefined : io.env[variable];
  if (fromEnv) return fromEnv;
  if (values['password-stdin'] !== true && values['password-env'] !== undefined)
    return fail(io, name, `${variable} is not set`, EXIT.USAGE);
  if (values['password-stdin'] !== true && !io.interactive)
    return fail(
      io,
      name,
      `no password: no terminal to type it on; give --password-stdin or set ${PASSWORD_ENV}`,
      EXIT.USAGE,
    );
  const r = values['password-stdin'] === true ? await passwordFromStdin(io) : await passwordFromTerminal(io);
  return 'exit' in r ? fail(io, name, r.message, r.exit) : r.password;
}

function fail(io: CliIo, name: string, message: string, code: number = EXIT.FAILED): number {
  io.err(`${name}: ${message}\n`);
  return code;
}

function required(io: CliIo, name: string, values: Values, key: string): string | undefined {
  const v = values[key];
  if (typeof v === 'string' && v.trim() !== '') return v.trim();
  io.err(`${name}: --${key} is required\nRun '${MAIN} ${name} --help' for usage.\n`);
  return undefined;
}

export const command: CliCommand = {
  name: 'store_integration_credentials',
  summary: 'store encrypted managed-node credentials for the integration-test client (real-node tests)',
  help: `Seals one credential (product, kind, host) in the vault of the integration-test client, exactly
as the *_store_credentials tools would for that client: encrypted with the client's key derived from
secrets/vault_master.key, recorded as a CREDENTIAL event in audit.log. An existing credential for the
same product, kind and host is replaced after a confirmation (--yes without a terminal).

The password is read, in this order: from stdin with --password-stdin; from the variable named by
--password-env; from ${PASSWORD_ENV}; typed on the terminal without echo (twice). Never from the
command line. Neither the password nor the user name is printed.

Kinds per product: cucm axl|os|phone, imp axl|os, cuc cupi|os. --address and --ca-cert fill the
credential's options as the product clients read them (where to connect, which CA to pin). With
--kind os, --ssh-fingerprint pins the node's SSH host key for the client (a TRUSTED event); without
it the first connection stops at the host-key check, as it would for the client through MCP.

Examples:
  node --import tsx scripts/store_integration_credentials.ts --product cucm --kind axl \\
    --host cucm-pub.example.com --username axladmin
  printf '%s' "$AXL_PW" | node --import tsx scripts/store_integration_credentials.ts --product cuc \\
    --kind cupi --host cuc1.example.com --username cupiadmin --password-stdin --yes

Exit codes:
  0  stored
  1  the vault refused it (invalid host, kind not of that product, unreadable vault) or the typed
     passwords differ
  2  usage error: a required option is missing, or no password source without a terminal
  3  declined: replacing an existing credential was not confirmed`,
  options: [
    { name: 'product', type: 'string', description: `managed product: ${PRODUCTS.join(' | ')}` },
    { name: 'kind', type: 'string', description: 'credential kind: axl | cupi | os | phone' },
    { name: 'host', type: 'string', description: 'the node as name[:port]: the key of the credential' },
    { name: 'username', short: 'u', type: 'string', description: 'the login on the node' },
    { name: 'password-stdin', type: 'boolean', description: 'read the password from stdin (one line)' },
    {
      name: 'password-env',
      type: 'string',
      description: `read the password from this variable (default ${PASSWORD_ENV})`,
    },
    { name: 'address', type: 'string', description: 'where to connect, host:port, when not the host itself' },
    { name: 'ca-cert', type: 'string', description: "PEM file of the CA to pin for the node's TLS" },
    {
      name: 'ssh-fingerprint',
      type: 'string',
      description: "with --kind os: the node's SSH host key (SHA256:...), checked on the node, to trust",
    },
    {
      name: 'client',
      type: 'string',
      description: `the client whose vault gets it (default: UC_INTEGRATION_CLIENT, else ${DEFAULT_INTEGRATION_CLIENT})`,
    },
    {
      name: 'state-dir',
      type: 'string',
      description: "state directory (default: UC_INTEGRATION_STATE_DIR, else the server's STATE_DIR)",
    },
    {
      name: 'yes',
      short: 'y',
      type: 'boolean',
      description: 'replace an existing credential without asking',
    },
  ],

  async run({ values, positionals }, io) {
    const name = this.name;
    const stray = rejectPositionals(name, positionals, io);
    if (stray !== undefined) return stray;
    const productArg = required(io, name, values, 'product');
    const kindArg = required(io, name, values, 'kind');
    const hostArg = required(io, name, values, 'host');
    const username = required(io, name, values, 'username');
    if (!productArg || !kindArg || !hostArg || !username) return EXIT.USAGE;
    if (!(PRODUCTS as readonly string[]).includes(productArg))
      return fail(io, name, `--product must be one of ${PRODUCTS.join(', ')}`, EXIT.USAGE);
    const product = productArg as Product;
    if (!(KINDS_BY_PRODUCT[product] as readonly string[]).includes(kindArg))
      return fail(
        io,
        name,
        `--kind for ${product} must be one of ${KINDS_BY_PRODUCT[product].join(', ')}`,
        EXIT.USAGE,
      );
    const kind = kindArg as CredentialKind;
    let host: string;
    try {
      host = normaliseHost(hostArg);
    } catch (err) {
      return fail(io, name, (err as Error).message, EXIT.USAGE);
    }
    let fingerprint: string | undefined;
    if (typeof values['ssh-fingerprint'] === 'string') {
      if (kind !== 'os') return fail(io, name, '--ssh-fingerprint goes with --kind os', EXIT.USAGE);
      fingerprint = normaliseFingerprint(values['ssh-fingerprint']);
      if (!fingerprint) return fail(io, name, '--ssh-fingerprint must be SHA256:<base64>', EXIT.USAGE);
    }
    const options: Record<string, string> = {};
    if (typeof values.address === 'string') options.address = values.address;
    if (typeof values['ca-cert'] === 'string') {
      const file = resolve(io.cwd, values['ca-cert']);
      try {
        options.caCertPem = readFileSync(file, 'utf8');
      } catch (err) {
        return fail(io, name, `cannot read ${file}: ${(err as Error).message}`);
      }
      if (!options.caCertPem.includes('-----BEGIN CERTIFICATE-----'))
        return fail(io, name, `${file} holds no PEM certificate`);
    }

    const target = integrationTarget(io, name, {
      stateDir: values['state-dir'] as string | undefined,
      client: values.client as string | undefined,
    });
    const password = await readPassword(io, values, name);
    if (typeof password === 'number') return password;
    const secret: CredentialSecret = {
      username,
      password,
      ...(Object.keys(options).length > 0 ? { options } : {}),
    };

    const vault = openClientVault(name, target);
    try {
      const exists = (await vault.view.list(product)).some((e) => e.kind === kind && e.host === host);
      if (exists) {
        const ok = await confirm(
          io,
          `${target.client} already has ${product} ${kind} credentials for ${host}. Replace them?`,
          { yes: values.yes === true },
        );
        if (!ok) return fail(io, name, 'nothing stored', EXIT.DECLINED);
        await vault.view.update(product, kind, host, secret);
      } else {
        await vault.view.store(product, kind, host, secret);
      }
      if (fingerprint) vault.view.hostKeys.pinVerified(product, host, fingerprint);
      io.out(
        `${exists ? 'replaced' : 'stored'} ${product} ${kind} credentials for ${host} in the vault of ` +
          `client ${target.client} (${target.stateDir})${fingerprint ? `; SSH host key ${fingerprint} trusted` : ''}\n`,
      );
      return EXIT.OK;
    } catch (err) {
      return fail(io, name, (err as Error).message);
    } finally {
      await vault.close();
    }
  },
};

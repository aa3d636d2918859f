// credentials: the operator's way to put a managed node's login in a client's vault without it ever
// passing through a model: store, update, delete, list, for unattended setups. The change is the one
// the *_store_credentials tools make (same vault, same checks, same CREDENTIAL audit record, marked
// by: operator), so the client's next tool call uses it; the running server sees it at once (it
// checks the vault file on every use) and both take the file's lock, so neither change is lost.
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parseAuthClients, type ClientSpec } from '../../clients/auth-clients.ts';
import { profileNames } from '../../clients/sync.ts';
import { NodeAddressPolicy } from '../../net/node-address-policy.ts';
import { PROJECT_ROOT, statePaths } from '../../paths.ts';
import {
  checkCertificatePem,
  credentialTarget,
  KINDS_BY_PRODUCT,
  normaliseHost,
  PRODUCTS,
  splitAddress,
  type ClientVault,
  type CredentialKind,
  type CredentialSecret,
  type Product,
} from '../../vault/index.ts';
import { EXIT, type CliCommand, type CliIo } from '../command.ts';
import { STATE_DIR_OPTION } from '../common-options.ts';
import { confirm } from '../confirm.ts';
import { MAIN } from '../help.ts';
import { openClientVault } from '../integration-vault.ts';
import {
  PASSWORD_ARGV_REFUSAL,
  PASSWORD_STDIN_OPTION,
  passwordFromStdin,
  passwordFromTerminal,
  REFUSED_PASSWORD_OPTION,
} from '../password-input.ts';
import { readSettings, type CommandSettings } from '../settings.ts';

const NAME = 'credentials';
const ACTIONS = ['store', 'update', 'delete', 'list'] as const;
type Action = (typeof ACTIONS)[number];
type Values = Record<string, string | boolean | undefined>;

/** The kind a tool without a kind infix handles (`cucm_store_credentials` is AXL, `cuc_...` CUPI). */
const PRIMARY_KIND: Record<Product, CredentialKind> = { cucm: 'axl', imp: 'axl', cuc: 'cupi' };

const HELP = `Usage:
  ${NAME} store  --client <name> --product <p> [--kind <k>] --host <h> --username <u> [options]
  ${NAME} update --client <name> --product <p> [--kind <k>] --host <h> --username <u> [options]
  ${NAME} delete --client <name> --product <p> [--kind <k>] --host <h> [--yes]
  ${NAME} list   --client <name> [--product <p>] [--json]

Puts a managed node's credentials in the vault of one MCP client (a name of AUTH_CLIENTS), exactly as
that client's *_store_credentials tools would: sealed with the client's key, checked the same way (host
syntax, address, certificates, the node address policy), recorded in audit.log as a CREDENTIAL event
with by: "operator". The client's next tool call uses them. store fails when the client already has
credentials of that kind for that host (use update); update and delete fail when it has none.

Kinds per product (default the first): cucm axl|os|phone, imp axl|os, cuc cupi|os. os is the OS Admin
CLI over SSH (its host key is trusted on first connection, as through the tools); phone is phone web
access, with --scheme https for 98xx phones.

The password is never taken from the command line: it is typed twice on the terminal without echo, or
piped as one line with --password-stdin. --password and -p are refused. list shows hosts, kinds, user
names and dates, never a password.

Runs while the server runs: the server checks the vault file on every use, and both take the file's
lock while changing it. Run it as the user the server runs as (the files are private to that user).

Examples:
  ucmcp credentials store --client noc-agent --product cucm --host cucm-pub.example.com -u axladmin
  printf '%s\\n' "$AXL_PASSWORD" | ucmcp credentials store --client noc-agent --product cuc \\
    --host cuc1.example.com -u cupiadmin --ca-cert cluster-ca.pem --password-stdin
  ucmcp credentials list --client noc-agent

Exit codes:
  0  done
  1  refused: already stored (store) or not stored (update, delete), a check failed (certificate,
     node address policy), the typed passwords differ, or the vault cannot be used
  2  usage error: unknown action, missing or invalid option, a password on the command line, or no
     password source without a terminal
  3  declined: no password typed, or a deletion not confirmed`;

export const command: CliCommand = {
  name: NAME,
  summary: "store, update, delete or list a client's managed-node credentials (password never in argv)",
  help: HELP,
  options: [
    { name: 'client', type: 'string', description: 'the MCP client (AUTH_CLIENTS name) whose vault it is' },
    { name: 'product', type: 'string', description: `managed product: ${PRODUCTS.join(' | ')}` },
    { name: 'kind', type: 'string', description: 'axl | cupi | os | phone (default: axl; cupi for cuc)' },
    { name: 'host', type: 'string', description: 'the node as name[:port]: the key of the credential' },
    { name: 'username', short: 'u', type: 'string', description: 'the login on the node' },
    PASSWORD_STDIN_OPTION,
    REFUSED_PASSWORD_OPTION,
    { name: 'address', type: 'string', description: 'where the service listens, host:port, if not the host' },
    { name: 'ca-cert', type: 'string', description: "PEM file of a CA to trust for this node's TLS" },
    {
      name: 'cert',
      type: 'string',
      description: "PEM file of the node's own self-signed certificate, pinned",
    },
    { name: 'scheme', type: 'string', description: 'phone only: http (default) or https (98xx phones)' },
    {
      name: 'read-only',
      type: 'boolean',
      description:
        'store/update: writes forbidden with this credential (for audits); update without it clears it',
    },
    { name: 'json', type: 'boolean', description: 'list: print JSON' },
    { name: 'yes', short: 'y', type: 'boolean', description: 'delete without asking' },
    STATE_DIR_OPTION,
  ],

  async run({ values, positionals }, io) {
    if (values.password !== undefined) return fail(io, PASSWORD_ARGV_REFUSAL, EXIT.USAGE);
    const [action, ...rest] = positionals;
    if (!(ACTIONS as readonly string[]).includes(action ?? ''))
      return usage(io, `the action is one of ${ACTIONS.join(', ')}`);
    if (rest.length > 0) return usage(io, `unexpected argument '${String(rest[0])}'`);
    const act = action as Action;
    const misplaced = misplacedOption(act, values);
    if (misplaced) return usage(io, misplaced);

    const settings = readSettings(io, NAME, values['state-dir'] as string | undefined);
    const client = clientOf(io, settings, values);
    if (typeof client === 'number') return client;
    if (act === 'list') return list(io, settings, client.name, values);

    const target = slotOf(io, values);
    if (typeof target === 'number') return target;
    if (act === 'delete') return remove(io, settings, client.name, target, values.yes === true);

    if (!client.products.includes(target.product))
      return fail(
        io,
        `client ${client.name} is scoped to ${client.products.join('+')} (AUTH_CLIENTS): its tools cannot reach ${target.product}`,
      );
    const username = text(values.username);
    if (!username) return usage(io, '--username is required');
    const options = optionsOf(io, values, target.kind);
    if (typeof options === 'number') return options;
    const secretOptions = Object.keys(options).length > 0 ? { options } : {};
    const policy = nodeAddresses(settings);
    const where = credentialTarget(target.kind, target.host, { username, password: '-', ...secretOptions });
    if (where) {
      try {
        await policy.checkStorable(where.host, where.port);
      } catch (err) {
        return fail(io, (err as Error).message);
      }
    }
    const password =
      values['password-stdin'] === true
        ? await passwordFromStdin(io)
        : io.interactive
          ? await passwordFromTerminal(io)
          : {
              exit: EXIT.USAGE,
              message: 'no terminal to type the password on: pipe it with --password-stdin',
            };
    if ('exit' in password) return fail(io, password.message, password.exit);
    const secret: CredentialSecret = {
      username,
      password: password.password,
      ...secretOptions,
      ...(values['read-only'] === true ? { read_only: true } : {}),
    };
    return withVault(io, settings, client.name, async (vault) => {
      const entry = await vault[act](target.product, target.kind, target.host, secret);
      io.out(
        `${act === 'store' ? 'Stored' : 'Updated'} ${entry.product} ${entry.kind} credentials for ${entry.host} ` +
          `in the vault of client ${client.name}${entry.read_only ? ' (read-only: writes forbidden)' : ''}.\n`,
      );
      return EXIT.OK;
    });
  },
};

interface Slot {
  product: Product;
  kind: CredentialKind;
  host: string;
}

function usage(io: CliIo, why: string): number {
  io.err(`${NAME}: ${why}\nRun '${MAIN} ${NAME} --help' for usage.\n`);
  return EXIT.USAGE;
}

function fail(io: CliIo, message: string, code: number = EXIT.FAILED): number {
  io.err(`${NAME}: ${message}\n`);
  return code;
}

function text(v: string | boolean | undefined): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v.trim() : undefined;
}

/** An option that the action does not take, named, or undefined. */
function misplacedOption(action: Action, values: Values): string | undefined {
  const secretOnly = ['username', 'password-stdin', 'address', 'ca-cert', 'cert', 'scheme', 'read-only'];
  const notFor: Record<Action, string[]> = {
    store: ['json', 'yes'],
    update: ['json', 'yes'],
    delete: [...secretOnly, 'json'],
    list: [...secretOnly, 'kind', 'host', 'yes'],
  };
  const stray = notFor[action].find((o) => values[o] !== undefined);
  return stray ? `${action} takes no --${stray}` : undefined;
}

/** The client named by --client, as AUTH_CLIENTS declares it (the server purges any other's vault). */
function clientOf(io: CliIo, settings: CommandSettings, values: Values): ClientSpec | number {
  const name = text(values.client);
  if (!name) return usage(io, '--client is required (the MCP client whose vault it is)');
  const paths = statePaths(settings.stateDir);
  // The shipped profiles too: the server copies them into the state at its first start.
  const profiles = new Set([
    ...profileNames(join(PROJECT_ROOT, 'profiles', '_default')),
    ...profileNames(paths.profiles),
  ]);
  let specs: ClientSpec[];
  try {
    specs = parseAuthClients(settings.value('AUTH_CLIENTS') ?? '', profiles);
  } catch (err) {
    return fail(io, `AUTH_CLIENTS cannot be read: ${(err as Error).message}`);
  }
  const spec = specs.find((s) => s.name === name);
  if (spec) return spec;
  const known = specs.map((s) => s.name).join(', ') || 'none';
  return fail(io, `no client ${JSON.stringify(name.slice(0, 64))} in AUTH_CLIENTS (configured: ${known})`);
}

/** --product, --kind (default the product's primary kind) and --host, checked as the vault checks them. */
function slotOf(io: CliIo, values: Values): Slot | number {
  const productArg = text(values.product);
  if (!productArg) return usage(io, '--product is required');
  if (!(PRODUCTS as readonly string[]).includes(productArg))
    return usage(io, `--product must be one of ${PRODUCTS.join(', ')}`);
  const product = productArg as Product;
  const kindArg = text(values.kind) ?? PRIMARY_KIND[product];
  if (!(KINDS_BY_PRODUCT[product] as readonly string[]).includes(kindArg))
    return usage(io, `--kind for ${product} must be one of ${KINDS_BY_PRODUCT[product].join(', ')}`);
  const hostArg = text(values.host);
  if (!hostArg) return usage(io, '--host is required');
  try {
    return { product, kind: kindArg as CredentialKind, host: normaliseHost(hostArg) };
  } catch (err) {
    return usage(io, `--host: ${(err as Error).message}`);
  }
}

/** The credential's options as the tools build them: address, pinned CA or certificate, phone scheme. */
function optionsOf(io: CliIo, values: Values, kind: CredentialKind): Record<string, string> | number {
  const options: Record<string, string> = {};
  const address = text(values.address);
  if (address !== undefined) {
    if (!splitAddress(address)) return usage(io, '--address must be host:port, [v6]:port or host');
    options.address = address;
  }
  for (const [option, key] of [
    ['ca-cert', 'caCertPem'],
    ['cert', 'certPem'],
  ] as const) {
    const file = text(values[option]);
    if (file === undefined) continue;
    const path = resolve(io.cwd, file);
    let pem: string;
    try {
      pem = readFileSync(path, 'utf8');
    } catch (err) {
      return fail(io, `--${option}: cannot read ${path} (${(err as NodeJS.ErrnoException).code ?? 'error'})`);
    }
    try {
      options[key] = checkCertificatePem(pem, `--${option} ${path}`);
    } catch (err) {
      return fail(io, (err as Error).message);
    }
  }
  const scheme = text(values.scheme);
  if (scheme !== undefined) {
    if (kind !== 'phone') return usage(io, '--scheme goes with --kind phone');
    if (scheme !== 'http' && scheme !== 'https') return usage(io, '--scheme must be http or https');
    options.scheme = scheme;
  }
  return options;
}

/** The node address policy as the server applies it: NODE_ALLOWED_NETWORKS, and its own listener. */
function nodeAddresses(settings: CommandSettings): NodeAddressPolicy {
  const policy = new NodeAddressPolicy({ allowed: settings.config?.NODE_ALLOWED_NETWORKS ?? [] });
  if (settings.config) policy.addListener(settings.config.SERVER_HOST, settings.config.SERVER_PORT);
  return policy;
}

async function withVault(
  io: CliIo,
  settings: CommandSettings,
  client: string,
  fn: (vault: ClientVault) => Promise<number>,
): Promise<number> {
  let open: ReturnType<typeof openClientVault>;
  try {
    open = openClientVault(
      NAME,
      { stateDir: settings.stateDir, client, config: settings.config },
      { mark: { by: 'operator' } },
    );
  } catch (err) {
    return fail(io, (err as Error).message);
  }
  try {
    return await fn(open.view);
  } catch (err) {
    return fail(io, (err as Error).message);
  } finally {
    await open.close();
  }
}

async function remove(
  io: CliIo,
  settings: CommandSettings,
  client: string,
  slot: Slot,
  yes: boolean,
): Promise<number> {
  return withVault(io, settings, client, async (vault) => {
    const exists = (await vault.list(slot.product)).some((e) => e.kind === slot.kind && e.host === slot.host);
    if (!exists)
      return fail(io, `client ${client} has no ${slot.product} ${slot.kind} credentials for ${slot.host}`);
    const ok = await confirm(
      io,
      `Delete the ${slot.product} ${slot.kind} credentials of client ${client} for ${slot.host}?`,
      { yes },
    );
    if (!ok) return fail(io, 'nothing deleted', EXIT.DECLINED);
    await vault.delete(slot.product, slot.kind, slot.host);
    io.out(
      `Deleted ${slot.product} ${slot.kind} credentials for ${slot.host} from the vault of client ${client}.\n`,
    );
    return EXIT.OK;
  });
}

async function list(io: CliIo, settings: CommandSettings, client: string, values: Values): Promise<number> {
  const productArg = text(values.product);
  if (productArg !== undefined && !(PRODUCTS as readonly string[]).includes(productArg))
    return usage(io, `--product must be one of ${PRODUCTS.join(', ')}`);
  return withVault(io, settings, client, async (vault) => {
    const rows = [];
    for (const e of await vault.list(productArg as Product | undefined)) {
      // The user name is sealed with the password: it is opened for the listing, the password dropped.
      let username: string | null;
      try {
        username = (await vault.get(e.product, e.kind, e.host)).username;
      } catch {
        username = null;
      }
      rows.push({
        product: e.product,
        kind: e.kind,
        host: e.host,
        username,
        updated_at: e.updatedAt,
        read_only: e.read_only,
      });
    }
    if (values.json === true) {
      io.out(`${JSON.stringify({ client, credentials: rows }, null, 2)}\n`);
      return EXIT.OK;
    }
    if (rows.length === 0) {
      io.out(`Client ${client} has no stored credentials${productArg ? ` for ${productArg}` : ''}.\n`);
      return EXIT.OK;
    }
    io.out(`Credentials of client ${client}:\n`);
    for (const r of rows)
      io.out(
        `  ${r.product.padEnd(4)} ${r.kind.padEnd(5)} ${r.host}  user ${
          r.username === null ? '(does not open)' : JSON.stringify(r.username)
        }  updated ${r.updated_at}${r.read_only ? '  read-only' : ''}\n`,
      );
    return EXIT.OK;
  });
}

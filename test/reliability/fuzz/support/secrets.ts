// Every secret the server holds in its state directory (client secrets and their hashes, startup
// tokens, the JWT signing key, the TLS key, the vault master key), as needles to look for in answers.
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';

export interface Needle {
  /** Where the secret lives, for the failure message (never the secret itself). */
  name: string;
  bytes: Buffer;
}

function pemLines(pem: string): string[] {
  return pem
    .split(/\r?\n/)
    .filter((l) => !l.startsWith('-----') && l.length >= 40)
    .slice(0, 12);
}

/** The server's secrets as needles; `extra` adds others (e.g. the lab's passwords) by name. */
export function serverSecrets(stateDir: string, extra: Record<string, string> = {}): Needle[] {
  const out: Needle[] = [];
  const add = (name: string, value: string | Buffer): void => {
    const bytes = Buffer.isBuffer(value) ? value : Buffer.from(value, 'utf8');
    if (bytes.length >= 8) out.push({ name, bytes });
  };
  const clients = join(stateDir, 'clients');
  for (const client of existsSync(clients) ? readdirSync(clients) : []) {
    const dir = join(clients, client, 'secrets');
    const read = (f: string): string | undefined =>
      existsSync(join(dir, f)) ? readFileSync(join(dir, f), 'utf8').trim() : undefined;
    const secret = read('.client_secret');
    if (secret) add(`${client} client secret`, secret);
    const token = read('.token');
    if (token) {
      add(`${client} startup token`, token);
      add(`${client} startup token signature`, token.split('.').at(-1) ?? '');
    }
    const reg = read('registration.json');
    if (reg)
      add(`${client} secret hash`, (JSON.parse(reg) as { client_secret_hash: string }).client_secret_hash);
  }
  const secrets = join(stateDir, 'secrets');
  for (const file of ['rsa_private.pem', 'tls_key.pem']) {
    const p = join(secrets, file);
    if (existsSync(p)) pemLines(readFileSync(p, 'utf8')).forEach((l, i) => add(`${file} line ${i + 2}`, l));
  }
  const master = join(secrets, 'vault_master.key');
  if (existsSync(master)) {
    const key = readFileSync(master);
    add('vault master key', key);
    add('vault master key (base64)', key.toString('base64').replace(/=+$/, ''));
    add('vault master key (hex)', key.toString('hex'));
  }
  for (const [name, value] of Object.entries(extra)) add(name, value);
  return out;
}

/** Names of the needles found in `answer` that the request did not itself carry. */
export function leakedSecrets(needles: Needle[], answer: Buffer, request?: Buffer): string[] {
  return needles
    .filter((n) => answer.includes(n.bytes) && !(request && request.includes(n.bytes)))
    .map((n) => n.name);
}

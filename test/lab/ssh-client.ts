// A VOS CLI client for the tests: keyboard-interactive login, one shell, read until a pattern.
import { createHash } from 'node:crypto';
import { Client } from 'ssh2';
import type { ClientChannel } from 'ssh2';

export interface CliSession {
  client: Client;
  /** Everything the shell printed so far. */
  output(): string;
  /** Resolves with the output since `from` once it matches `re`. */
  waitFor(re: RegExp, from?: number, timeoutMs?: number): Promise<string>;
  send(text: string): void;
  /** Sends a command line and resolves with its output up to the next prompt. */
  run(command: string, timeoutMs?: number): Promise<string>;
  close(): void;
}

export function fingerprint(key: Buffer): string {
  return `SHA256:${createHash('sha256').update(key).digest('base64').replace(/=+$/, '')}`;
}

export function connect(
  port: number,
  user: string,
  password: string,
  o: { onHostKey?: (fp: string) => void; rows?: number } = {},
): Promise<Client> {
  return new Promise((resolve, reject) => {
    const client = new Client();
    client.on('keyboard-interactive', (_name, _instructions, _lang, prompts, finish) =>
      finish(prompts.map(() => password)),
    );
    client.on('ready', () => resolve(client));
    client.on('error', reject);
    client.connect({
      host: '127.0.0.1',
      port,
      username: user,
      tryKeyboard: true,
      readyTimeout: 10_000,
      hostVerifier: (key: Buffer) => {
        o.onHostKey?.(fingerprint(key));
        return true;
      },
    });
  });
}

export async function openCli(
  port: number,
  user: string,
  password: string,
  o: { onHostKey?: (fp: string) => void; rows?: number } = {},
): Promise<CliSession> {
  const client = await connect(port, user, password, o);
  const channel = await new Promise<ClientChannel>((resolve, reject) =>
    client.shell({ rows: o.rows ?? 24, cols: 132, term: 'vt100' }, (err, ch) =>
      err ? reject(err) : resolve(ch),
    ),
  );
  let buffer = '';
  const waiters = new Set<() => void>();
  channel.on('data', (d: Buffer) => {
    buffer += d.toString('utf8');
    for (const w of [...waiters]) w();
  });
  const waitFor = (re: RegExp, from = 0, timeoutMs = 5_000): Promise<string> =>
    new Promise((resolve, reject) => {
      const check = (): void => {
        const slice = buffer.slice(from);
        if (re.test(slice)) {
          waiters.delete(check);
          clearTimeout(timer);
          resolve(slice);
        }
      };
      const timer = setTimeout(() => {
        waiters.delete(check);
        reject(new Error(`timed out waiting for ${String(re)}; got: ${JSON.stringify(buffer.slice(from))}`));
      }, timeoutMs);
      waiters.add(check);
      check();
    });
  const session: CliSession = {
    client,
    output: () => buffer,
    waitFor,
    send: (text) => channel.write(text),
    run: async (command, timeoutMs) => {
      const from = buffer.length;
      channel.write(`${command}\r`);
      const out = await waitFor(/\r\nadmin:$/, from, timeoutMs);
      return out.slice(command.length).replace(/\r\nadmin:$/, '');
    },
    close: () => client.end(),
  };
  await waitFor(/admin:$/);
  return session;
}

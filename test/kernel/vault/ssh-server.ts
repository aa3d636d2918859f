// A real ssh2 server for the host-key tests: it records every step a client reaches, so a test can
// prove that a refused host key stopped the client before authentication and before any command.
import type { AddressInfo } from 'node:net';
import ssh2 from 'ssh2';
import type { TofuHostVerifier } from '../../../kernel/vault/index.ts';

const { Client, Server, utils } = ssh2;

export const SSH_USER = 'admin';
export const SSH_PASSWORD = 'ssh-canary-pw-93e1';

export interface TestSshServer {
  port: number;
  /** 'connection', 'auth:<method>', 'ready', 'exec:<command>' in order. */
  events: string[];
  /** The host key's public blob, as a client receives it. */
  publicBlob: Buffer;
  publicKey: string;
  close(): Promise<void>;
}

/** A host key ssh2 can parse back (its generator sometimes makes one it cannot: see lab/vos/host-key.ts). */
export function newHostKey(): { private: string; public: string } {
  for (let attempt = 0; attempt < 50; attempt++) {
    const pair = utils.generateKeyPairSync('ed25519');
    if (!(utils.parseKey(pair.private) instanceof Error)) return pair;
  }
  throw new Error('could not generate an ed25519 host key that ssh2 can parse');
}

export function startSshServer(
  hostKey: { private: string; public: string },
  port = 0,
): Promise<TestSshServer> {
  const events: string[] = [];
  const server = new Server({ hostKeys: [hostKey.private] }, (conn) => {
    events.push('connection');
    conn.on('error', () => undefined);
    conn.on('authentication', (ctx) => {
      events.push(`auth:${ctx.method}`);
      if (ctx.method === 'password' && ctx.username === SSH_USER && ctx.password === SSH_PASSWORD)
        ctx.accept();
      else ctx.reject(['password']);
    });
    conn.on('ready', () => {
      events.push('ready');
      conn.on('session', (accept) => {
        accept().on('exec', (acceptExec, _reject, info) => {
          events.push(`exec:${info.command}`);
          const channel = acceptExec();
          channel.write(`ran ${info.command}\n`);
          channel.exit(0);
          channel.end();
        });
      });
    });
  });
  const parsed = utils.parseKey(hostKey.public);
  if (parsed instanceof Error) throw parsed;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      resolve({
        port: (server.address() as AddressInfo).port,
        events,
        publicBlob: parsed.getPublicSSH(),
        publicKey: hostKey.public,
        close: () => new Promise((r) => server.close(() => r())),
      });
    });
  });
}

/** Connects with the verifier, runs one command, and resolves with its output (rejects with ssh2's error). */
export function runCommand(port: number, verifier: TofuHostVerifier, command: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const client = new Client();
    client.on('error', (err) => {
      client.end();
      reject(err);
    });
    client.on('ready', () => {
      client.exec(command, (err, stream) => {
        if (err) return reject(err);
        let out = '';
        stream.on('data', (d: Buffer) => (out += d.toString()));
        stream.on('close', () => {
          client.end();
          resolve(out);
        });
      });
    });
    client.connect({
      host: '127.0.0.1',
      port,
      username: SSH_USER,
      password: SSH_PASSWORD,
      hostVerifier: verifier,
      readyTimeout: 10_000,
    });
  });
}

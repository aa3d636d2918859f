import { timingSafeEqual } from 'node:crypto';
import ssh2 from 'ssh2';
import type { Connection, ServerChannel } from 'ssh2';
import type { Credential } from '../credentials.ts';
import type { ShellGuard } from '../hostile/ssh.ts';
import type { Database } from '../informix/database.ts';
import type { LabLog } from '../state/log.ts';
import type { NodeFacts } from './facts.ts';
import { VosShell } from './shell.ts';
import type { VosState } from './state.ts';

export interface SshNodeOptions {
  host: string;
  port: number;
  hostKey: string;
  os: VosState;
  facts: NodeFacts;
  credential: Credential;
  db?: Database;
  log: LabLog;
  loginDelayMs: number;
  commandDelaysMs: Record<string, number>;
  tomcatNotAfter: Date;
  /** When the served tomcat certificate began to be valid, and its serial (hex). */
  tomcatNotBefore?: Date;
  tomcatSerial?: string;
  /** The served tomcat certificate itself, which `show cert own tomcat` prints after its fields. */
  tomcatCertPem?: string;
  /** The hostile mode's hold on shells (a shell without prompt, commands without answer). */
  hostile?: ShellGuard;
}

export interface SshListener {
  port: number;
  close(): Promise<void>;
}

function same(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

const VM_BLOCK = [
  'VMware Installation:',
  '\t2 vCPU: Intel(R) Xeon(R) Gold 6248 CPU @ 2.50GHz',
  '\tDisk 1: 110GB, Partitions aligned',
  '\t8192 Mbytes RAM',
];

/**
 * The VOS CLI over SSH: keyboard-interactive is the only method that can succeed, there is no exec
 * channel (and no subsystem), and a shell is the CLI session.
 */
export async function startSshNode(o: SshNodeOptions): Promise<SshListener> {
  const connections = new Set<Connection>();
  const server = new ssh2.Server({ hostKeys: [o.hostKey], ident: 'OpenSSH_8.0' }, (client) => {
    connections.add(client);
    let user = '';
    client.on('authentication', (ctx) => {
      if (ctx.method !== 'keyboard-interactive') {
        if (ctx.method !== 'none') o.os.refusedLogins++;
        ctx.reject(['keyboard-interactive']);
        return;
      }
      ctx.prompt([{ prompt: 'Password: ', echo: false }], (answers) => {
        if (same(ctx.username, o.credential.user) && same(answers[0] ?? '', o.credential.password)) {
          user = ctx.username;
          o.os.logins++;
          ctx.accept();
        } else {
          o.os.refusedLogins++;
          ctx.reject(['keyboard-interactive']);
        }
      });
    });
    client.on('ready', () => {
      client.on('session', (accept) => {
        const session = accept();
        let rows = 24;
        let pty = false;
        let shell: VosShell | undefined;
        session.on('pty', (ok, _reject, info) => {
          pty = true;
          if (info.rows > 0) rows = info.rows;
          ok?.();
        });
        session.on('window-change', (ok, _reject, info) => {
          if (info.rows > 0 && shell) shell.rows = info.rows;
          ok?.();
        });
        session.on('env', (ok) => ok?.());
        session.on('exec', (_ok, reject) => reject?.());
        session.on('subsystem', (_ok, reject) => reject?.());
        session.on('shell', (ok) => {
          const channel: ServerChannel = ok();
          if (o.hostile?.takeOver(channel)) return;
          const current = new VosShell({
            stream: channel,
            context: {
              os: o.os,
              facts: o.facts,
              log: o.log,
              user,
              tomcatNotAfter: o.tomcatNotAfter,
              ...(o.tomcatNotBefore ? { tomcatNotBefore: o.tomcatNotBefore } : {}),
              ...(o.tomcatSerial ? { tomcatSerial: o.tomcatSerial } : {}),
              ...(o.tomcatCertPem ? { tomcatCertPem: o.tomcatCertPem } : {}),
              ...(o.db ? { db: o.db } : {}),
            },
            loginDelayMs: o.loginDelayMs,
            commandDelaysMs: o.commandDelaysMs,
            rows,
            echo: pty,
            vmBlock: VM_BLOCK,
            onClose: () => {
              channel.exit(0);
              channel.end();
            },
          });
          shell = current;
          channel.on('data', (data: Buffer) => {
            if (!o.hostile?.swallow(channel)) current.input(data.toString('utf8'));
          });
          channel.on('close', () => current.dispose());
          current.start();
        });
      });
    });
    client.on('error', () => {
      // A client vanishing mid-handshake is normal traffic for a server.
    });
    client.on('close', () => connections.delete(client));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => {
      server.off('error', reject);
      resolve();
    });
  });
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('ssh server has no TCP address');
  return {
    port: address.port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of connections) c.end();
        server.close(() => resolve());
      }),
  };
}

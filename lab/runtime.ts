import { replacementCertificate } from './hostile/certificates.ts';
import { hostileHandler } from './hostile/http.ts';
import { shellGuard } from './hostile/ssh.ts';
import type { HostileSwitches } from './hostile/switches.ts';
import type { RequestHandler } from './http/listener.ts';
import { listen } from './http/listener.ts';
import type { Database } from './informix/database.ts';
import type { ResolvedOptions } from './options.ts';
import { portFor } from './options.ts';
import type { LabLog } from './state/log.ts';
import type { LabCa } from './tls/lab-ca.ts';
import { loadOrIssueNodeCert } from './tls/node-cert.ts';
import type { NodeFacts } from './vos/facts.ts';
import { loadOrCreateHostKey } from './vos/host-key.ts';
import { tlsVersionFor } from './vos/node-os.ts';
import { startSshNode } from './vos/ssh-server.ts';
import type { VosState } from './vos/state.ts';

/** What every node starter gets. */
export interface LabContext {
  opts: ResolvedOptions;
  ca: LabCa;
  log: LabLog;
  /** Closers of everything started so far, run by stop() (and on a failed start). */
  closers: (() => Promise<void>)[];
  /** The hostile mode's switches (every attack off unless asked). */
  hostile: HostileSwitches;
}

export interface ServedNode {
  httpsPort: number;
  sshPort: number;
  fingerprint: string;
}

/**
 * The two faces of a VOS node: Tomcat over HTTPS with a lab-CA certificate, and the CLI over SSH with the
 * node's persistent host key. The handler may read the node's public address once listening.
 */
export async function serveVosNode(
  ctx: LabContext,
  a: {
    name: string;
    os: VosState;
    facts: NodeFacts;
    db?: Database;
    httpsSlot: number;
    sshSlot: number;
    handler: (address: () => string) => RequestHandler;
  },
): Promise<ServedNode> {
  const { opts } = ctx;
  const names = [...new Set(['localhost', '127.0.0.1', a.name, opts.host])];
  const cert = loadOrIssueNodeCert(opts.stateDir, ctx.ca, a.name, names, a.os.tomcatCertDays);
  let port = 0;
  const address = (): string => `${opts.host}:${port}`;
  const handler = hostileHandler(ctx.hostile, a.name, a.handler(address));
  const https = await listen(opts.host, portFor(opts, a.httpsSlot), handler, {
    certPem: cert.certPem,
    keyPem: cert.keyPem,
    minVersion: tlsVersionFor(a.os),
  });
  port = https.port;
  ctx.closers.push(() => https.close());
  let presented: string | undefined;
  ctx.hostile.onCertificate(a.name, (attack) => {
    if (attack === presented) return;
    presented = attack;
    const next = attack ? replacementCertificate(attack, ctx.ca, a.name, names) : cert;
    https.setCertificate(next.certPem, next.keyPem);
  });
  const key = loadOrCreateHostKey(opts.stateDir, a.name);
  const ssh = await startSshNode({
    host: opts.host,
    port: portFor(opts, a.sshSlot),
    hostKey: key.privateKey,
    os: a.os,
    facts: a.facts,
    credential: opts.credentials.os,
    log: ctx.log,
    loginDelayMs: opts.loginDelayMs,
    commandDelaysMs: opts.commandDelaysMs,
    tomcatNotAfter: cert.notAfter,
    hostile: shellGuard(ctx.hostile, a.name),
    ...(a.db ? { db: a.db } : {}),
  });
  ctx.closers.push(() => ssh.close());
  return { httpsPort: https.port, sshPort: ssh.port, fingerprint: key.fingerprint };
}

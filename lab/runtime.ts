import { replacementCertificate } from './hostile/certificates.ts';
import { hostileHandler } from './hostile/http.ts';
import { shellGuard } from './hostile/ssh.ts';
import type { HostileSwitches } from './hostile/switches.ts';
import type { RequestHandler } from './http/listener.ts';
import { listen } from './http/listener.ts';
import type { Database } from './informix/database.ts';
import type { ResolvedOptions } from './options.ts';
import type { NodeServiceability } from './serviceability/mount.ts';
import { withServiceability } from './serviceability/mount.ts';
import { portFor, selfSignedNode } from './options.ts';
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
  /** The second HTTPS port, when the node has one (`alsoHttpsSlot`). */
  alsoHttpsPort?: number;
  sshPort: number;
  fingerprint: string;
  /** The HTTPS certificate served (hostile attacks aside) and its SHA-256, for the lab's info. */
  certPem: string;
  certFingerprint: string;
}

/**
 * The two faces of a VOS node: Tomcat over HTTPS with its own self-signed certificate (or one from the
 * lab CA: `selfSignedNode` decides per product), and the CLI over SSH with the node's persistent host
 * key. The handler may read the node's public address once listening.
 */
export async function serveVosNode(
  ctx: LabContext,
  a: {
    name: string;
    os: VosState;
    facts: NodeFacts;
    db?: Database;
    httpsSlot: number;
    /** A second HTTPS listener with the same service and certificate (CUC's 443 beside 8443). */
    alsoHttpsSlot?: number;
    sshSlot: number;
    handler: (address: () => string) => RequestHandler;
    /**
     * The serviceability SOAP services (PerfmonService...) Tomcat serves beside the product's own APIs,
     * on every VOS node (lab/serviceability/services.ts lists them).
     */
    serviceability?: Omit<NodeServiceability, 'node' | 'log'>;
  },
): Promise<ServedNode> {
  const { opts } = ctx;
  const fqdn = `${a.facts.hostname}.${a.facts.domain}`;
  const names = [...new Set(['localhost', '127.0.0.1', a.name, fqdn, opts.host])];
  const signer = selfSignedNode(opts, a.facts.product) ? undefined : ctx.ca;
  const cert = loadOrIssueNodeCert(opts.stateDir, signer, a.name, { fqdn }, names, a.os.tomcatCertDays);
  // The CLI describes the certificate the node serves, whatever the profile would have installed.
  const facts = withTomcatSigner(a.facts, signer !== undefined);
  let port = 0;
  const address = (): string => `${opts.host}:${port}`;
  const own = a.handler(address);
  const served = a.serviceability
    ? withServiceability(own, { ...a.serviceability, node: a.name, log: ctx.log }, address)
    : own;
  const handler = hostileHandler(ctx.hostile, a.name, served);
  const https = await listen(opts.host, portFor(opts, a.httpsSlot), handler, {
    certPem: cert.certPem,
    keyPem: cert.keyPem,
    minVersion: tlsVersionFor(a.os),
  });
  port = https.port;
  ctx.closers.push(() => https.close());
  const also =
    a.alsoHttpsSlot === undefined
      ? undefined
      : await listen(opts.host, portFor(opts, a.alsoHttpsSlot), handler, {
          certPem: cert.certPem,
          keyPem: cert.keyPem,
          minVersion: tlsVersionFor(a.os),
        });
  if (also) ctx.closers.push(() => also.close());
  let presented: string | undefined;
  ctx.hostile.onCertificate(a.name, (attack) => {
    if (attack === presented) return;
    presented = attack;
    const next = attack ? replacementCertificate(attack, signer, a.name, { fqdn }, names) : cert;
    https.setCertificate(next.certPem, next.keyPem);
    also?.setCertificate(next.certPem, next.keyPem);
  });
  const key = loadOrCreateHostKey(opts.stateDir, a.name);
  const ssh = await startSshNode({
    host: opts.host,
    port: portFor(opts, a.sshSlot),
    hostKey: key.privateKey,
    os: a.os,
    facts,
    credential: opts.credentials.os,
    log: ctx.log,
    loginDelayMs: opts.loginDelayMs,
    commandDelaysMs: opts.commandDelaysMs,
    tomcatNotAfter: cert.notAfter,
    tomcatNotBefore: cert.notBefore,
    tomcatSerial: cert.serial,
    tomcatCertPem: cert.certPem,
    hostile: shellGuard(ctx.hostile, a.name),
    ...(a.db ? { db: a.db } : {}),
  });
  ctx.closers.push(() => ssh.close());
  return {
    httpsPort: https.port,
    ...(also ? { alsoHttpsPort: also.port } : {}),
    sshPort: ssh.port,
    fingerprint: key.fingerprint,
    certPem: cert.certPem,
    certFingerprint: cert.fingerprint,
  };
}

const TOMCAT = 'tomcat/tomcat.pem';

/** `show cert list own` as it is for the signer of the served tomcat certificate. */
function withTomcatSigner(facts: NodeFacts, caSigned: boolean): NodeFacts {
  const description = caSigned
    ? 'Certificate Signed by UC MCP Lab CA'
    : 'Self-signed certificate generated by system';
  return {
    ...facts,
    certs: facts.certs.map(([n, d]): [string, string] => (n === TOMCAT ? [n, description] : [n, d])),
  };
}

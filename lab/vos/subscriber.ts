// The other nodes of a lab cluster (CUCM subscribers, the IM&P subscriber, Unity Connection's secondary
// server): on a real cluster every VOS
// node runs Tomcat with the serviceability SOAP APIs on its own 8443 ("https://ServerName:8443/
// perfmonservice2/services/PerfmonService?wsdl ... Replace the ServerName with the Cisco Unified CM server
// name or IP address": developer.cisco.com, PerfMon API reference), each answering for itself, while AXL
// is the publisher's (PLATFORM-NOTES.md). Each subscriber here gets its own HTTPS listener, certificate
// (signed as the publisher's is: per product, lab/options.ts selfSignedNode) and service table, and
// serves the serviceability APIs only; its CLI (SSH) is not simulated.
import { tomcatNotFound } from '../cucm/node.ts';
import type { RisState } from '../cucm/ris/registrations.ts';
import { hostileHandler } from '../hostile/http.ts';
import { listen } from '../http/listener.ts';
import { portFor, selfSignedNode } from '../options.ts';
import type { LabContext } from '../runtime.ts';
import { withServiceability } from '../serviceability/mount.ts';
import { serviceabilityServices } from '../serviceability/services.ts';
import { PERFMON_PATH } from '../serviceability/perfmon/wsdl.ts';
import { CONTROL_CENTER_PATH } from '../serviceability/control-center/operations.ts';
import { loadOrIssueNodeCert } from '../tls/node-cert.ts';
import type { LabNodeCredentials, LabNodeInfo } from '../types.ts';
import { nodeFacts } from './facts.ts';
import { tlsVersionFor } from './node-os.ts';
import { serviceSpec } from './service-catalogue.ts';
import type { NodeServices, ServiceLine } from './services.ts';
import { nodeServices } from './services.ts';
import type { VosProduct, VosState } from './state.ts';

export interface SubscriberSpec {
  product: VosProduct;
  name: string;
  /** The port slot of its HTTPS listener (with a base port); ephemeral otherwise. */
  httpsSlot: number;
  /** Every node of its cluster, itself included, as PerfMon's Host may name them. */
  clusterNodes: () => string[];
  /** CUCM: the CallManager nodes, publisher first (`show network cluster`, the node's IP). */
  callManagers?: () => readonly string[];
  /** CUCM: the cluster's RIS registrations (its PerfMon counts the phones registered to it). */
  ris?: RisState;
  /** The publisher's OS state: the TLS minimum version is a cluster-wide setting. */
  publisherOs: VosState;
  /** The cluster's application users (one database, replicated to every node). */
  authenticate: (user: string, password: string) => boolean;
  credentials: LabNodeCredentials;
  /** The cluster's release as the CLI prints it (every node of a cluster runs the publisher's). */
  version: string;
  /** Its address in the lab's plan, when the product's facts do not place it (IM&P's, Connection's). */
  ip?: string;
}

/**
 * A fresh subscriber's certificate lifetime. The expiring-certificate weakness is the publisher's
 * (its audits read the publisher), so a subscriber's is healthy.
 */
const SUBSCRIBER_CERT_DAYS = 730;

/**
 * Services a subscriber does not run, though the publisher does: the CDR Analysis and Reporting
 * database and scheduler, Bulk Administration, DirSync and AXL live on the first node (the lab's
 * reading of Cisco's Serviceability guide, Service Activation: "activate ... on the first node only");
 * not activated here.
 */
const PUBLISHER_ONLY = new Set([
  'Cisco AXL Web Service',
  'Cisco Bulk Provisioning Service',
  'Cisco CAR DB',
  'Cisco CAR Scheduler',
  'Cisco DirSync',
]);

/**
 * What only Unity Connection's server with Primary status runs: "Sending message notifications and MWI
 * requests (the Connection Notifier service is activated). Sending SMTP notifications and VPIM messages
 * (the Connection Message Transfer Agent service is activated)" (Install, Upgrade, and Maintenance Guide
 * for Cisco Unity Connection Release 11.x, "Configuring Cisco Unity Connection Cluster"). Activated on
 * both servers, stopped on the secondary.
 */
const PRIMARY_ONLY = new Set(['Connection Notifier', 'Connection Message Transfer Agent']);

/** The subscriber's own service table: the publisher's lines, without what only a publisher runs. */
function subscriberServices(product: VosProduct, own: NodeServices, bootedAt: number): NodeServices {
  const lines = own
    .lines()
    .map(([name, state, note]): ServiceLine =>
      PUBLISHER_ONLY.has(name)
        ? [name, 'STOPPED', 'Service Not Activated']
        : product === 'cuc' && PRIMARY_ONLY.has(name)
          ? [name, 'STOPPED']
          : ([name, state, ...(note ? [note] : [])] as ServiceLine),
    );
  return nodeServices(product, lines, serviceSpec, bootedAt);
}

export async function serveSubscriber(ctx: LabContext, s: SubscriberSpec): Promise<LabNodeInfo> {
  const { opts } = ctx;
  const facts = nodeFacts(s.product, s.name, opts, s.callManagers);
  const bootedAt = Date.now() - facts.uptimeDays * 86_400_000;
  const services = subscriberServices(s.product, facts.services, bootedAt);
  const fqdn = `${facts.hostname}.${facts.domain}`;
  const names = [...new Set(['localhost', '127.0.0.1', s.name, fqdn, opts.host])];
  const selfSigned = selfSignedNode(opts, s.product);
  const cert = loadOrIssueNodeCert(
    opts.stateDir,
    selfSigned ? undefined : ctx.ca,
    s.name,
    { fqdn },
    names,
    SUBSCRIBER_CERT_DAYS,
  );
  let port = 0;
  const address = (): string => `${opts.host}:${port}`;
  const served = withServiceability(
    async (_req, res) => tomcatNotFound(res),
    {
      node: s.name,
      log: ctx.log,
      authenticate: s.authenticate,
      services: serviceabilityServices({
        product: s.product,
        node: s.name,
        clusterNodes: s.clusterNodes,
        ...(s.ris ? { ris: s.ris } : {}),
        bootedAt,
        perfmonPerMinute: opts.perfmonRateLimitPerMinute,
        logCollectionPerMinute: opts.logCollectionRateLimitPerMinute,
        services,
        aliases: [fqdn, s.ip ?? facts.ip],
      }),
    },
    address,
  );
  const https = await listen(
    opts.host,
    portFor(opts, s.httpsSlot),
    hostileHandler(ctx.hostile, s.name, served),
    {
      certPem: cert.certPem,
      keyPem: cert.keyPem,
      minVersion: tlsVersionFor(s.publisherOs),
    },
  );
  port = https.port;
  ctx.closers.push(() => https.close());
  const base = `https://${opts.host}:${https.port}`;
  return {
    product: s.product,
    name: s.name,
    host: opts.host,
    address: address(),
    ports: { https: https.port },
    urls: { perfmon: `${base}${PERFMON_PATH}`, controlCenter: `${base}${CONTROL_CENTER_PATH}` },
    credentials: s.credentials,
    certPem: cert.certPem,
    certFingerprint: cert.fingerprint,
    selfSigned,
    version: s.version,
  };
}

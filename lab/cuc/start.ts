import { tomcatNotFound } from '../cucm/node.ts';
import { requestPath } from '../http/request.ts';
import { PORT_SLOTS } from '../options.ts';
import type { LabContext } from '../runtime.ts';
import { serveVosNode } from '../runtime.ts';
import type { LabNodeInfo } from '../types.ts';
import { nodeFacts } from '../vos/facts.ts';
import { initialOsState } from '../vos/node-os.ts';
import { cupiHandler } from './cupi/router.ts';
import { SessionTable } from './cupi/sessions.ts';
import { cucDrfLogs } from './drf.ts';
import { seedCuc } from './seed.ts';
import { applyCucScale } from '../scale/cuc.ts';
import type { CucState } from './state.ts';
import { unityDirDb } from './unitydirdb.ts';
import { serviceabilityServices } from '../serviceability/services.ts';
import { sameSecret } from '../serviceability/credentials.ts';
import type { ClusterNode } from '../vos/facts.ts';
import { serveSubscriber } from '../vos/subscriber.ts';

export const CUC_NODE = 'cuc-pub';
/** The secondary server of the Connection cluster (the site and enterprise scales). */
export const CUC_SUBSCRIBER = 'cuc-sub';

/**
 * The secondary server in the lab's address plan (the publisher's .8 follows). A real Connection cluster
 * has two servers at most ("two Unity Connection servers that are configured in a cluster": Install,
 * Upgrade, and Maintenance Guide for Cisco Unity Connection Release 11.x, "Configuring Cisco Unity
 * Connection Cluster").
 */
const SECONDARY: ClusterNode = { name: CUC_SUBSCRIBER, ip: '10.10.20.9', role: 'Subscriber', product: 'cuc' };

export async function startCuc(ctx: LabContext): Promise<{ state: CucState; info: LabNodeInfo }> {
  const { opts } = ctx;
  const cupi = seedCuc(opts);
  if (opts.plan) applyCucScale(cupi, opts.plan);
  const own = nodeFacts('cuc', CUC_NODE, opts);
  const cluster = [...own.cluster(), ...(opts.plan?.spec.cucSubscriber ? [SECONDARY] : [])];
  const clusterNodes = (): string[] => cluster.map((n) => n.name);
  // The CLI reads the same directory CUPI serves (`show cuc dbview`), and the DRF logs (`file list`);
  // `show network cluster` and the replication status list both servers of a Connection cluster.
  const facts = {
    ...own,
    cluster: () => cluster,
    replicationServers: (): [string, string][] => cluster.map((n) => [n.name, n.ip]),
    ...cucDrfLogs(CUC_NODE, opts.weaknesses),
    unitydirdb: unityDirDb(cupi),
  };
  const state: CucState = {
    node: CUC_NODE,
    cupi,
    sessions: new SessionTable(),
    os: initialOsState(CUC_NODE, 'cuc', opts.weaknesses),
  };
  // Unity Connection's serviceability APIs take its administrator, the CUPI login of the lab (on both
  // servers: the directory is replicated).
  const authenticate = (user: string, password: string): boolean =>
    user === opts.credentials.cupi.user && sameSecret(password, opts.credentials.cupi.password);
  const served = await serveVosNode(ctx, {
    name: CUC_NODE,
    os: state.os,
    facts,
    httpsSlot: PORT_SLOTS.cucHttps,
    // A real Unity Connection serves CUPI on 443 as well as 8443.
    alsoHttpsSlot: PORT_SLOTS.cucHttps443,
    sshSlot: PORT_SLOTS.cucSsh,
    serviceability: {
      authenticate,
      services: serviceabilityServices({
        product: 'cuc',
        node: CUC_NODE,
        clusterNodes,
        bootedAt: Date.now() - facts.uptimeDays * 86_400_000,
        perfmonPerMinute: opts.perfmonRateLimitPerMinute,
        logCollectionPerMinute: opts.logCollectionRateLimitPerMinute,
        services: facts.services,
        aliases: [`${facts.hostname}.${facts.domain}`, facts.ip],
      }),
    },
    handler: (publicAddress) => {
      const cupi = cupiHandler({
        node: CUC_NODE,
        store: state.cupi,
        sessions: state.sessions,
        credential: opts.credentials.cupi,
        log: ctx.log,
        publicAddress,
        cluster: () =>
          cluster.map((n, i) => ({
            ServerName: n.name,
            HostName: `${n.name}.${facts.domain}`,
            IpAddress: n.ip,
            ClusterMemberId: String(i),
          })),
      });
      return async (req, res) => {
        const { path } = requestPath(req);
        if (path === '/vmrest' || path.startsWith('/vmrest/')) return cupi(req, res);
        tomcatNotFound(res);
      };
    },
  });
  // The secondary answers its own serviceability APIs at its own address, with its own service table.
  const subscribers = await Promise.all(
    cluster.slice(1).map((n) =>
      serveSubscriber(ctx, {
        product: 'cuc',
        name: n.name,
        httpsSlot: PORT_SLOTS.cucSubscriberHttps,
        clusterNodes,
        publisherOs: state.os,
        authenticate,
        credentials: { cupi: { ...opts.credentials.cupi } },
        version: facts.activeVersion,
        ip: n.ip,
      }),
    ),
  );
  return {
    state,
    info: {
      product: 'cuc',
      name: CUC_NODE,
      host: opts.host,
      address: `${opts.host}:${served.httpsPort}`,
      ports: {
        https: served.httpsPort,
        ssh: served.sshPort,
        ...(served.alsoHttpsPort !== undefined ? { https443: served.alsoHttpsPort } : {}),
      },
      urls: {
        cupi: `https://${opts.host}:${served.httpsPort}/vmrest/`,
        ...(served.alsoHttpsPort !== undefined
          ? { cupi443: `https://${opts.host}:${served.alsoHttpsPort}/vmrest/` }
          : {}),
      },
      credentials: { cupi: { ...opts.credentials.cupi }, os: { ...opts.credentials.os } },
      sshHostKeyFingerprint: served.fingerprint,
      certPem: served.certPem,
      certFingerprint: served.certFingerprint,
      version: facts.activeVersion,
      ...(subscribers.length > 0 ? { subscribers } : {}),
    },
  };
}

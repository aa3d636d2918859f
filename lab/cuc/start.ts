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

export const CUC_NODE = 'cuc-pub';

export async function startCuc(ctx: LabContext): Promise<{ state: CucState; info: LabNodeInfo }> {
  const { opts } = ctx;
  const cupi = seedCuc(opts);
  if (opts.plan) applyCucScale(cupi, opts.plan);
  // The CLI reads the same directory CUPI serves (`show cuc dbview`), and the DRF logs (`file list`).
  const facts = {
    ...nodeFacts('cuc', CUC_NODE, opts),
    ...cucDrfLogs(CUC_NODE, opts.weaknesses),
    unitydirdb: unityDirDb(cupi),
  };
  const state: CucState = {
    node: CUC_NODE,
    cupi,
    sessions: new SessionTable(),
    os: initialOsState(CUC_NODE, 'cuc', opts.weaknesses),
  };
  const served = await serveVosNode(ctx, {
    name: CUC_NODE,
    os: state.os,
    facts,
    httpsSlot: PORT_SLOTS.cucHttps,
    // A real Unity Connection serves CUPI on 443 as well as 8443.
    alsoHttpsSlot: PORT_SLOTS.cucHttps443,
    sshSlot: PORT_SLOTS.cucSsh,
    // Unity Connection's serviceability APIs take its administrator, the CUPI login of the lab.
    serviceability: {
      authenticate: (user, password) =>
        user === opts.credentials.cupi.user && sameSecret(password, opts.credentials.cupi.password),
      services: serviceabilityServices({
        product: 'cuc',
        node: CUC_NODE,
        clusterNodes: () => [CUC_NODE],
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
          facts.cluster().map((n, i) => ({
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
    },
  };
}

import { axlEndpoint } from '../cucm/axl/endpoint.ts';
import { AXL_VERSIONS, tomcatNotFound } from '../cucm/node.ts';
import { CUCM_PUBLISHER, IMP_NODE } from '../cucm/topology.ts';
import { buildToolkitZip } from '../cucm/toolkit/zip.ts';
import { requestPath, send } from '../http/request.ts';
import { PORT_SLOTS } from '../options.ts';
import type { LabContext } from '../runtime.ts';
import { serveVosNode } from '../runtime.ts';
import type { LabNodeInfo } from '../types.ts';
import { nodeFacts } from '../vos/facts.ts';
import { initialOsState } from '../vos/node-os.ts';
import { drfLogs } from './drf.ts';
import { impOperations } from './operations.ts';
import { IMP_VERSION, seedImp } from './seed.ts';
import { subscriberNames } from '../scale/cucm.ts';
import { applyImpScale } from '../scale/imp.ts';
import { pkidSource } from '../scale/random.ts';
import type { ImpState } from './state.ts';
import { authenticateAppUser } from '../cucm/db/credentials.ts';
import { AXL_ROLE } from '../cucm/db/roles.ts';
import { serviceabilityServices } from '../serviceability/services.ts';
import { IMP_SUBSCRIBER } from './seed.ts';
import { serveSubscriber } from '../vos/subscriber.ts';

export async function startImp(ctx: LabContext): Promise<{ state: ImpState; info: LabNodeInfo }> {
  const { opts } = ctx;
  const db = seedImp(opts, opts.credentials, pkidSource(opts.seed, 'imp'));
  if (opts.plan) applyImpScale(db, opts.plan);
  // IM&P sits in the main CUCM cluster: `show network cluster` lists its CallManagers at this scale.
  const callManagers = [CUCM_PUBLISHER, ...subscriberNames(opts.plan?.spec.subscribers ?? 1)];
  const facts = {
    ...nodeFacts('imp', IMP_NODE, opts, () => callManagers),
    ...drfLogs(IMP_NODE, opts.weaknesses),
  };
  const state: ImpState = { node: IMP_NODE, db, os: initialOsState(IMP_NODE, 'imp', opts.weaknesses) };
  const axl = axlEndpoint({
    node: IMP_NODE,
    db,
    log: ctx.log,
    operations: impOperations(IMP_VERSION),
    versions: AXL_VERSIONS,
    maxResponseBytes: opts.axlMaxResponseBytes,
    ...(opts.axlWriteThrottle ? { writeThrottle: opts.axlWriteThrottle } : {}),
  });
  let zip: Promise<Buffer> | undefined;
  // The lab's IM&P has no RealtimeAndTraceCollection group: its AXL application user stands in.
  const serviceabilityUser = (user: string, password: string): boolean =>
    authenticateAppUser(db, user, password, AXL_ROLE) !== undefined;
  // The presence redundancy group's two nodes (the IM&P database's processnode table).
  const impNodes = (): string[] => [IMP_NODE, IMP_SUBSCRIBER];
  const served = await serveVosNode(ctx, {
    name: IMP_NODE,
    os: state.os,
    facts,
    db,
    httpsSlot: PORT_SLOTS.impHttps,
    sshSlot: PORT_SLOTS.impSsh,
    serviceability: {
      authenticate: serviceabilityUser,
      services: serviceabilityServices({
        product: 'imp',
        node: IMP_NODE,
        clusterNodes: impNodes,
        bootedAt: Date.now() - facts.uptimeDays * 86_400_000,
        perfmonPerMinute: opts.perfmonRateLimitPerMinute,
        logCollectionPerMinute: opts.logCollectionRateLimitPerMinute,
        services: facts.services,
        aliases: [`${facts.hostname}.${facts.domain}`, facts.ip],
      }),
    },
    handler: () => async (req, res) => {
      const { path } = requestPath(req);
      if (path === '/axl' || path === '/axl/') return axl(req, res);
      if (path === '/plugins/axlsqltoolkit.zip' && req.method === 'GET') {
        zip ??= buildToolkitZip(opts.axlSchemaDir);
        const body = await zip;
        ctx.log.request({ node: IMP_NODE, service: 'toolkit', method: 'GET', path, status: 200 });
        send(res, 200, 'application/zip', body, {
          'content-disposition': 'attachment; filename=axlsqltoolkit.zip',
        });
        return;
      }
      tomcatNotFound(res);
    },
  });
  const subscriber = await serveSubscriber(ctx, {
    product: 'imp',
    name: IMP_SUBSCRIBER,
    httpsSlot: PORT_SLOTS.impSubscriberHttps,
    clusterNodes: impNodes,
    callManagers: () => callManagers,
    publisherOs: state.os,
    authenticate: serviceabilityUser,
    credentials: { axl: { ...opts.credentials.axl } },
    version: facts.activeVersion,
    // The lab's address plan: IM&P publisher .5, its subscriber .6.
    ip: '10.10.20.6',
  });
  const base = `https://${opts.host}:${served.httpsPort}`;
  return {
    state,
    info: {
      product: 'imp',
      name: IMP_NODE,
      host: opts.host,
      address: `${opts.host}:${served.httpsPort}`,
      ports: { https: served.httpsPort, ssh: served.sshPort },
      urls: { axl: `${base}/axl/`, toolkit: `${base}/plugins/axlsqltoolkit.zip` },
      credentials: { axl: { ...opts.credentials.axl }, os: { ...opts.credentials.os } },
      sshHostKeyFingerprint: served.fingerprint,
      certPem: served.certPem,
      certFingerprint: served.certFingerprint,
      version: facts.activeVersion,
      subscribers: [subscriber],
    },
  };
}

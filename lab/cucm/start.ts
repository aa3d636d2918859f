import { PORT_SLOTS } from '../options.ts';
import type { LabContext } from '../runtime.ts';
import { serveVosNode } from '../runtime.ts';
import { SlidingWindow } from '../state/sliding-window.ts';
import type { LabNodeInfo } from '../types.ts';
import { nodeFacts } from '../vos/facts.ts';
import { initialOsState } from '../vos/node-os.ts';
import { cucmOperations } from './axl/operations.ts';
import { cucmFiles } from './files.ts';
import { cucmHandler } from './node.ts';
import { seedRegistrations } from './ris/registrations.ts';
import { risPhones } from '../vos/risdb.ts';
import { RIS_PATH, risRateLimit } from './ris/service.ts';
import type { ClusterNames } from './seed.ts';
import { MAIN_CLUSTER, seedCucm } from './seed.ts';
import {
  CUCM_PUBLISHER,
  CUCM_VERSION,
  LEGACY_PUBLISHER,
  LEGACY_SUBSCRIBER,
  LEGACY_VERSION,
} from './topology.ts';
import type { CucmState } from './state.ts';
import { applyCucmScale } from '../scale/cucm.ts';
import { pkidSource } from '../scale/random.ts';
import { addScaleRegistrations } from '../scale/ris.ts';
import { serviceabilityServices } from '../serviceability/services.ts';
import { CdrRepository } from './cdr/repository.ts';
import { DEMO_PHONES } from './topology.ts';
import { RIS_GROUP } from './ris/service.ts';
import { authenticateAppUser } from './db/credentials.ts';
import { axlFullVersion, axlSchemasFor, cliVersion } from './versions.ts';
import { serveSubscriber } from '../vos/subscriber.ts';

/** One CUCM cluster's publisher: the main one (scaled, the demo phones) or the 14.0 cluster's. */
export interface CucmNodeSpec {
  name: string;
  /** Release, e.g. `15.0.1.11900(40)` or `14.0.1.13900-155`. */
  version: string;
  httpsSlot: number;
  sshSlot: number;
  /** Only the main cluster carries the scale's data and the bulk phones. */
  main: boolean;
  cluster: ClusterNames;
}

/** A 12.5 build: a release the audit's policy treats as out of software maintenance (CUCM-OS-03). */
export const OUT_OF_MAINTENANCE_VERSION = '12.5.1.17900(64)';

export function mainCucm(ctx: LabContext): CucmNodeSpec {
  return {
    name: CUCM_PUBLISHER,
    // An explicit version wins; the release weakness otherwise leaves the publisher on 12.5, which every
    // view of the release (CLI, getCCMVersion, the AXL schemas served) then reports alike.
    version:
      ctx.opts.versions[CUCM_PUBLISHER] ??
      (ctx.opts.weaknesses.has('cucm-release-out-of-maintenance')
        ? OUT_OF_MAINTENANCE_VERSION
        : CUCM_VERSION),
    httpsSlot: PORT_SLOTS.cucmHttps,
    sshSlot: PORT_SLOTS.cucmSsh,
    main: true,
    cluster: MAIN_CLUSTER,
  };
}

export async function startCucm(
  ctx: LabContext,
  node: CucmNodeSpec = mainCucm(ctx),
): Promise<{ state: CucmState; info: LabNodeInfo }> {
  const { opts } = ctx;
  const extraPhones = node.main ? opts.extraPhones : 0;
  const db = seedCucm(
    opts,
    extraPhones,
    opts.risRateLimitPerMinute,
    opts.credentials,
    pkidSource(opts.seed, `cucm:${node.name}`),
    node.cluster,
  );
  const scaled = node.main && opts.plan ? applyCucmScale(db, opts.plan) : undefined;
  const registrations = seedRegistrations(db, extraPhones, node.cluster);
  if (scaled && opts.plan)
    addScaleRegistrations(registrations, scaled.phones, opts.seed, Math.floor(Date.now() / 1000));
  // The CLI reads the cluster and the RIS database when asked, so it shows what RIS and AXL show.
  const live: { ris?: CucmState['ris'] } = {};
  const facts = {
    ...nodeFacts('cucm', node.name, opts, () => live.ris?.nodes ?? [node.name]),
    activeVersion: cliVersion(node.version),
    // The 14.0 cluster came from 12.5; the main one keeps the facts' own inactive version.
    ...(node.main ? {} : { inactiveVersion: '12.5.1.17900-64' }),
    ...cucmFiles(opts.weaknesses),
    risPhones: () => (live.ris ? risPhones(db, live.ris.registrations) : []),
  };
  const state: CucmState = {
    node: node.name,
    db,
    os: initialOsState(node.name, 'cucm', opts.weaknesses),
    ris: {
      registrations,
      window: new SlidingWindow(() => risRateLimit(db, opts.risRateLimitPerMinute), 60_000),
      nodes: scaled?.nodes ?? [node.cluster.publisher, node.cluster.subscriber],
      startedAt: Math.floor(Date.now() / 1000) - facts.uptimeDays * 86_400,
    },
    toolkitDownloads: 0,
    // The Cluster ID enterprise parameter as shipped (StandAloneCluster) names the files; the cluster's
    // call-processing nodes write them, the publisher keeps them.
    cdr: new CdrRepository({
      clusterId: 'StandAloneCluster',
      nodes: [node.cluster.publisher, node.cluster.subscriber],
      phones: DEMO_PHONES,
      salt: [...`${opts.seed}:${node.name}`].reduce((h, c) => (Math.imul(h, 31) + c.charCodeAt(0)) >>> 0, 7),
    }),
  };
  live.ris = state.ris;
  // The serviceability APIs take an application user with the RealtimeAndTraceCollection role.
  const serviceabilityUser = (user: string, password: string): boolean =>
    authenticateAppUser(db, user, password, RIS_GROUP) !== undefined;
  const served = await serveVosNode(ctx, {
    name: node.name,
    os: state.os,
    facts,
    db,
    httpsSlot: node.httpsSlot,
    sshSlot: node.sshSlot,
    serviceability: {
      authenticate: serviceabilityUser,
      services: serviceabilityServices({
        product: 'cucm',
        node: node.name,
        clusterNodes: () => state.ris.nodes,
        ris: state.ris,
        bootedAt: state.ris.startedAt * 1000,
        perfmonPerMinute: opts.perfmonRateLimitPerMinute,
        cdr: { repository: state.cdr, perMinute: opts.cdrRateLimitPerMinute, pushPort: opts.cdrPushPort },
        logCollectionPerMinute: opts.logCollectionRateLimitPerMinute,
        services: facts.services,
        aliases: [`${facts.hostname}.${facts.domain}`, facts.ip],
      }),
    },
    handler: (publicAddress) =>
      cucmHandler({
        state,
        log: ctx.log,
        operations: cucmOperations(axlFullVersion(node.version)),
        axlVersions: axlSchemasFor(node.version),
        axlVersionWording: opts.axlVersionWording,
        axlSchemaDir: opts.axlSchemaDir,
        maxResponseBytes: opts.axlMaxResponseBytes,
        writeThrottle: opts.axlWriteThrottle,
        serviceTimeMs: opts.axlServiceTimeMs,
        risMaxDevicesPerAnswer: opts.risMaxDevicesPerAnswer,
        risShape: opts.risResponseShape,
        risFallbackRateLimit: opts.risRateLimitPerMinute,
        publicAddress,
      }),
  });
  // Every other CallManager node answers its own serviceability APIs at its own address.
  const subscribers = await Promise.all(
    state.ris.nodes
      .filter((n) => n !== node.name)
      .map((name, i) =>
        serveSubscriber(ctx, {
          product: 'cucm',
          name,
          httpsSlot: (node.main ? PORT_SLOTS.cucmSubscriberHttps : PORT_SLOTS.legacySubscriberHttps) + i,
          clusterNodes: () => state.ris.nodes,
          callManagers: () => state.ris.nodes,
          ris: state.ris,
          publisherOs: state.os,
          authenticate: serviceabilityUser,
          credentials: { axl: { ...opts.credentials.axl } },
          version: facts.activeVersion,
        }),
      ),
  );
  const base = `https://${opts.host}:${served.httpsPort}`;
  return {
    state,
    info: {
      product: 'cucm',
      name: node.name,
      host: opts.host,
      address: `${opts.host}:${served.httpsPort}`,
      ports: { https: served.httpsPort, ssh: served.sshPort },
      urls: {
        axl: `${base}/axl/`,
        ris: `${base}${RIS_PATH}`,
        risWsdl: `${base}${RIS_PATH}?wsdl`,
        toolkit: `${base}/plugins/axlsqltoolkit.zip`,
      },
      credentials: { axl: { ...opts.credentials.axl }, os: { ...opts.credentials.os } },
      sshHostKeyFingerprint: served.fingerprint,
      certPem: served.certPem,
      certFingerprint: served.certFingerprint,
      version: facts.activeVersion,
      ...(subscribers.length > 0 ? { subscribers } : {}),
    },
  };
}

/** The 14.0 cluster's publisher (`legacyCluster`): the demo seed under its own node names, no scale. */
export function legacyCucm(ctx: LabContext): CucmNodeSpec {
  return {
    name: LEGACY_PUBLISHER,
    version: ctx.opts.versions[LEGACY_PUBLISHER] ?? LEGACY_VERSION,
    httpsSlot: PORT_SLOTS.legacyHttps,
    sshSlot: PORT_SLOTS.legacySsh,
    main: false,
    cluster: { publisher: LEGACY_PUBLISHER, subscriber: LEGACY_SUBSCRIBER },
  };
}

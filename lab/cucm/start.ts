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
import { RIS_PATH, risRateLimit } from './ris/service.ts';
import { seedCucm } from './seed.ts';
import { CUCM_PUBLISHER, CUCM_SUBSCRIBER, CUCM_VERSION } from './topology.ts';
import type { CucmState } from './state.ts';

export async function startCucm(ctx: LabContext): Promise<{ state: CucmState; info: LabNodeInfo }> {
  const { opts } = ctx;
  const db = seedCucm(opts.profile, opts.extraPhones, opts.risRateLimitPerMinute, opts.credentials);
  const facts = { ...nodeFacts('cucm', CUCM_PUBLISHER, opts.profile), listFiles: cucmFiles(opts.profile) };
  const state: CucmState = {
    node: CUCM_PUBLISHER,
    db,
    os: initialOsState(CUCM_PUBLISHER, 'cucm', opts.profile),
    ris: {
      registrations: seedRegistrations(db, opts.extraPhones),
      window: new SlidingWindow(() => risRateLimit(db, opts.risRateLimitPerMinute), 60_000),
      nodes: [CUCM_PUBLISHER, CUCM_SUBSCRIBER],
      startedAt: Math.floor(Date.now() / 1000) - facts.uptimeDays * 86_400,
    },
    toolkitDownloads: 0,
  };
  const served = await serveVosNode(ctx, {
    name: CUCM_PUBLISHER,
    os: state.os,
    facts,
    db,
    httpsSlot: PORT_SLOTS.cucmHttps,
    sshSlot: PORT_SLOTS.cucmSsh,
    handler: (publicAddress) =>
      cucmHandler({
        state,
        log: ctx.log,
        operations: cucmOperations(CUCM_VERSION),
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
  const base = `https://${opts.host}:${served.httpsPort}`;
  return {
    state,
    info: {
      product: 'cucm',
      name: CUCM_PUBLISHER,
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
      version: facts.activeVersion,
    },
  };
}

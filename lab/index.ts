import { startCuc } from './cuc/start.ts';
import { legacyCucm, startCucm } from './cucm/start.ts';
import { HostileSwitches } from './hostile/switches.ts';
import { startImp } from './imp/start.ts';
import { resolveOptions, selfSignedNode } from './options.ts';
import { startPhones } from './phones/start.ts';
import type { LabContext } from './runtime.ts';
import { LabLog } from './state/log.ts';
import { loadOrCreateCa } from './tls/lab-ca.ts';
import type { Lab, LabInfo, LabNodeInfo, LabOptions, LabProduct } from './types.ts';

export type {
  Lab,
  LabCertificates,
  LabInfo,
  LabNodeInfo,
  LabNodeCredentials,
  LabOptions,
  LabPorts,
  LabProduct,
  LabProfile,
  LabState,
} from './types.ts';
export type { Credential } from './credentials.ts';
export type { CucState } from './cuc/state.ts';
export type { HostileOptions, HostileStats } from './hostile/index.ts';
export type { CucmState } from './cucm/state.ts';
export type { Registration, RisState } from './cucm/ris/registrations.ts';
export type { ImpState } from './imp/state.ts';
export type { Cell, Database, Row, Table } from './informix/database.ts';
export type { PhoneState } from './phones/state.ts';
export type { CommandRecord, LabLog, RequestRecord, WriteRecord } from './state/log.ts';
export type { VosState } from './vos/state.ts';
export { DEMO_CREDENTIALS } from './credentials.ts';
export { labTlsPin, labTrustedPem } from './tls/pins.ts';

/**
 * Starts every simulated node on loopback: CUCM publisher (AXL, toolkit, RisPort70), IM&P (AXL), Unity
 * Connection (CUPI), a VOS CLI over SSH for each, and one web server per demo phone.
 */
export async function startLab(options: LabOptions = {}): Promise<Lab> {
  const opts = resolveOptions(options);
  const ctx: LabContext = {
    opts,
    ca: loadOrCreateCa(opts.stateDir),
    log: new LabLog(),
    closers: [],
    hostile: new HostileSwitches(options.hostile),
  };
  const stopAll = async (): Promise<void> => {
    const closers = ctx.closers.splice(0).reverse();
    await Promise.allSettled(closers.map((c) => c()));
  };
  try {
    const cucm = await startCucm(ctx);
    const [imp, cuc, phones, legacy] = await Promise.all([
      startImp(ctx),
      startCuc(ctx),
      startPhones(ctx, cucm.state.db),
      opts.legacyCluster ? startCucm(ctx, legacyCucm(ctx)) : undefined,
    ]);
    const nodes = [cucm.info, imp.info, cuc.info, ...phones.infos, ...(legacy ? [legacy.info] : [])].map(
      (n): LabNodeInfo => (n.certPem ? { ...n, selfSigned: selfSignedNode(opts, n.product) } : n),
    );
    const signed = new Set(nodes.flatMap((n) => (n.selfSigned === undefined ? [] : [n.selfSigned])));
    const info: LabInfo = {
      profile: opts.profile,
      host: opts.host,
      startedAt: new Date().toISOString(),
      certificates: signed.size > 1 ? 'mixed' : signed.has(false) ? 'lab-ca' : 'self-signed',
      caCertPem: ctx.ca.certPem,
      weaknesses: [...opts.weaknesses].sort(),
      scale: opts.scale,
      seed: opts.seed,
      nodes,
    };
    return {
      info,
      state: {
        log: ctx.log,
        cucm: cucm.state,
        ...(legacy ? { cucm14: legacy.state } : {}),
        imp: imp.state,
        cuc: cuc.state,
        phones: phones.states,
        hostile: ctx.hostile,
        credentials: opts.credentials,
      },
      stop: stopAll,
    };
  } catch (err) {
    await stopAll();
    throw err;
  }
}

/** The first node of a product in a lab's info (the only one, except phones). */
export function labNode(info: LabInfo, product: LabProduct, name?: string): LabNodeInfo {
  const node = info.nodes.find((n) => n.product === product && (name === undefined || n.name === name));
  if (!node) throw new Error(`the lab has no ${product} node${name ? ` named ${name}` : ''}`);
  return node;
}

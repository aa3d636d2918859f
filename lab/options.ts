import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { labCredentials, type LabCredentials } from './credentials.ts';
import type { LabCertificates, LabOptions, LabProduct, LabProfile } from './types.ts';
import { SELF_SIGNED_WEAKNESS } from './vos/facts.ts';
import type { AxlVersionWording } from './cucm/versions.ts';
import { AXL_VERSION_WORDINGS, axlVersionOf } from './cucm/versions.ts';
import type { ScalePlan } from './scale/plan.ts';
import { parseWeaknessList, resolveWeaknesses, type Weaknesses } from './weaknesses/index.ts';
import { makePlan } from './scale/plan.ts';
import type { LabScale } from './scale/spec.ts';
import { DEFAULT_SEED, parseScale } from './scale/spec.ts';
import {
  REALISTIC_COMMAND_DELAYS_MS,
  REALISTIC_LOGIN_DELAY_MS,
  TIMINGS,
  type LabTiming,
} from './vos/timing.ts';

export interface ResolvedOptions {
  host: string;
  basePort: number;
  stateDir: string;
  profile: LabProfile;
  /** The weaknesses seeded (ids from lab/weaknesses/): the profile's, or exactly the ones asked for. */
  weaknesses: Weaknesses;
  /** `realistic`: the VOS CLI takes a real node's time (login 8 s, slow commands seconds). */
  timing: LabTiming;
  loginDelayMs: number;
  commandDelaysMs: Record<string, number>;
  axlSchemaDir: string | undefined;
  risRateLimitPerMinute: number;
  perfmonRateLimitPerMinute: number;
  cdrRateLimitPerMinute: number;
  cdrPushPort: number;
  logCollectionRateLimitPerMinute: number;
  risMaxDevicesPerAnswer: number;
  risResponseShape: 'cucm15' | 'legacy';
  extraPhones: number;
  scale: LabScale;
  seed: string;
  /** What the scale adds, decided from the seed (undefined for small). */
  plan: ScalePlan | undefined;
  /** CUCM release by node name, for the nodes the caller set. */
  versions: Record<string, string>;
  legacyCluster: boolean;
  axlVersionWording: AxlVersionWording;
  axlMaxResponseBytes: number;
  axlWriteThrottle: { maxWrites: number; windowMs: number } | undefined;
  axlServiceTimeMs: number;
  /** What each node accepts and `info` lists: the demo credentials unless `passwords` replaced some. */
  credentials: LabCredentials;
  /**
   * Who signs every node's HTTPS certificate when forced (the `certificates` option or LAB_CERTIFICATES);
   * undefined: each node by its own product's self-signed weakness (`selfSignedNode`).
   */
  certificates: LabCertificates | undefined;
}

function nonNegative(name: string, value: number): number {
  if (!Number.isFinite(value) || value < 0)
    throw new RangeError(`lab option ${name} must be a non-negative number, got ${value}`);
  return value;
}

/** Options, then the LAB_STATE_DIR and LAB_AXL_SCHEMA_DIR environment settings, then defaults. */
export function resolveOptions(o: LabOptions, env: NodeJS.ProcessEnv = process.env): ResolvedOptions {
  const profile = o.profile ?? 'weak';
  if (profile !== 'weak' && profile !== 'hardened')
    throw new RangeError(`lab profile must be weak or hardened, got ${String(profile)}`);
  const listed = o.weaknesses ?? (env.LAB_WEAKNESSES ? parseWeaknessList(env.LAB_WEAKNESSES) : undefined);
  const weaknesses = resolveWeaknesses(profile, listed);
  const schemaDir = o.axlSchemaDir ?? env.LAB_AXL_SCHEMA_DIR;
  const scale = parseScale(o.scale ?? env.LAB_SCALE);
  const seed = o.seed ?? (env.LAB_SEED || DEFAULT_SEED);
  const plan = makePlan(scale, seed);
  for (const version of Object.values(o.versions ?? {})) axlVersionOf(version);
  const wording = o.axlVersionWording ?? 'and';
  if (!AXL_VERSION_WORDINGS.includes(wording))
    throw new RangeError(`lab axlVersionWording must be one of ${AXL_VERSION_WORDINGS.join(', ')}`);
  const timing =
    o.timing ?? (env.LAB_TIMING === undefined || env.LAB_TIMING === '' ? 'fast' : env.LAB_TIMING);
  if (!TIMINGS.includes(timing as LabTiming))
    throw new RangeError(`lab timing must be fast or realistic, got ${String(timing)}`);
  const realistic = timing === 'realistic';
  return {
    host: o.host ?? '127.0.0.1',
    basePort: nonNegative('basePort', o.basePort ?? 0),
    stateDir: o.stateDir ?? env.LAB_STATE_DIR ?? join(tmpdir(), 'uc-mcp-lab'),
    profile,
    weaknesses,
    timing: timing as LabTiming,
    // Explicit delays win over the timing's, so a test can still shorten one command.
    loginDelayMs: nonNegative('loginDelayMs', o.loginDelayMs ?? (realistic ? REALISTIC_LOGIN_DELAY_MS : 300)),
    commandDelaysMs: { ...(realistic ? REALISTIC_COMMAND_DELAYS_MS : {}), ...o.commandDelaysMs },
    axlSchemaDir: schemaDir === undefined || schemaDir === '' ? undefined : schemaDir,
    risRateLimitPerMinute: nonNegative('risRateLimitPerMinute', o.risRateLimitPerMinute ?? 15),
    perfmonRateLimitPerMinute: nonNegative('perfmonRateLimitPerMinute', o.perfmonRateLimitPerMinute ?? 80),
    cdrRateLimitPerMinute: nonNegative('cdrRateLimitPerMinute', o.cdrRateLimitPerMinute ?? 10),
    cdrPushPort: nonNegative('cdrPushPort', o.cdrPushPort ?? 22),
    logCollectionRateLimitPerMinute: nonNegative(
      'logCollectionRateLimitPerMinute',
      o.logCollectionRateLimitPerMinute ?? 15,
    ),
    risMaxDevicesPerAnswer: Math.max(
      1,
      nonNegative('risMaxDevicesPerAnswer', o.risMaxDevicesPerAnswer ?? 1000),
    ),
    risResponseShape: o.risResponseShape ?? 'cucm15',
    extraPhones: Math.floor(nonNegative('extraPhones', o.extraPhones ?? 0)),
    scale,
    seed,
    plan,
    versions: { ...o.versions },
    legacyCluster: o.legacyCluster ?? plan?.spec.legacyCluster ?? false,
    axlVersionWording: wording,
    axlMaxResponseBytes: nonNegative('axlMaxResponseBytes', o.axlMaxResponseBytes ?? 8 * 1024 * 1024),
    axlWriteThrottle: o.axlWriteThrottle,
    axlServiceTimeMs: nonNegative('axlServiceTimeMs', o.axlServiceTimeMs ?? 0),
    credentials: labCredentials(o.passwords),
    certificates: certificatesOf(o.certificates ?? env.LAB_CERTIFICATES),
  };
}

/** A forced signer for every node, or undefined: each node as its weaknesses say. */
function certificatesOf(value: string | undefined): LabCertificates | undefined {
  if (value === undefined || value === '') return undefined;
  if (value !== 'self-signed' && value !== 'lab-ca')
    throw new RangeError(`lab certificates must be self-signed or lab-ca, got ${value}`);
  return value;
}

/**
 * Whether a product's nodes serve a self-signed HTTPS certificate: as forced, else as installed when the
 * product's self-signed weakness is seeded and CA-signed when not, so the certificate a node serves is
 * the one its CLI and its audit describe, whatever the other products' weaknesses.
 */
export function selfSignedNode(o: ResolvedOptions, product: LabProduct): boolean {
  if (product === 'phone') return false;
  if (o.certificates !== undefined) return o.certificates === 'self-signed';
  return o.weaknesses.has(SELF_SIGNED_WEAKNESS[product]);
}

/** Where each listener binds: consecutive ports from basePort in a fixed order, or ephemeral ports. */
export function portFor(o: ResolvedOptions, slot: number): number {
  return o.basePort === 0 ? 0 : o.basePort + slot;
}

export const PORT_SLOTS = {
  cucmHttps: 0,
  cucmSsh: 1,
  impHttps: 2,
  impSsh: 3,
  cucHttps: 4,
  cucSsh: 5,
  firstPhone: 6,
  /** After the four demo phones: the 14.0 cluster's publisher. */
  legacyHttps: 10,
  legacySsh: 11,
  /** Unity Connection's second HTTPS port (443 on a real node). */
  cucHttps443: 12,
  /** The main cluster's subscribers' HTTPS (serviceability APIs), one each (up to eight). */
  cucmSubscriberHttps: 13,
  /** The IM&P subscriber's HTTPS. */
  impSubscriberHttps: 21,
  /** The 14.0 cluster's subscriber's HTTPS. */
  legacySubscriberHttps: 22,
  /** The Unity Connection secondary server's HTTPS (site and enterprise scales). */
  cucSubscriberHttps: 23,
} as const;

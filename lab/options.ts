import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { labCredentials, type LabCredentials } from './credentials.ts';
import type { LabOptions, LabProfile } from './types.ts';

export interface ResolvedOptions {
  host: string;
  basePort: number;
  stateDir: string;
  profile: LabProfile;
  loginDelayMs: number;
  commandDelaysMs: Record<string, number>;
  axlSchemaDir: string | undefined;
  risRateLimitPerMinute: number;
  risMaxDevicesPerAnswer: number;
  risResponseShape: 'cucm15' | 'legacy';
  extraPhones: number;
  axlMaxResponseBytes: number;
  axlWriteThrottle: { maxWrites: number; windowMs: number } | undefined;
  axlServiceTimeMs: number;
  /** What each node accepts and `info` lists: the demo credentials unless `passwords` replaced some. */
  credentials: LabCredentials;
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
  const schemaDir = o.axlSchemaDir ?? env.LAB_AXL_SCHEMA_DIR;
  return {
    host: o.host ?? '127.0.0.1',
    basePort: nonNegative('basePort', o.basePort ?? 0),
    stateDir: o.stateDir ?? env.LAB_STATE_DIR ?? join(tmpdir(), 'uc-mcp-lab'),
    profile,
    loginDelayMs: nonNegative('loginDelayMs', o.loginDelayMs ?? 300),
    commandDelaysMs: o.commandDelaysMs ?? {},
    axlSchemaDir: schemaDir === undefined || schemaDir === '' ? undefined : schemaDir,
    risRateLimitPerMinute: nonNegative('risRateLimitPerMinute', o.risRateLimitPerMinute ?? 15),
    risMaxDevicesPerAnswer: Math.max(
      1,
      nonNegative('risMaxDevicesPerAnswer', o.risMaxDevicesPerAnswer ?? 1000),
    ),
    risResponseShape: o.risResponseShape ?? 'cucm15',
    extraPhones: Math.floor(nonNegative('extraPhones', o.extraPhones ?? 0)),
    axlMaxResponseBytes: nonNegative('axlMaxResponseBytes', o.axlMaxResponseBytes ?? 8 * 1024 * 1024),
    axlWriteThrottle: o.axlWriteThrottle,
    axlServiceTimeMs: nonNegative('axlServiceTimeMs', o.axlServiceTimeMs ?? 0),
    credentials: labCredentials(o.passwords),
  };
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
} as const;

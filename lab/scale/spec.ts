/**
 * How big the simulated clusters are (`LAB_SCALE`). Every count is the total the lab holds once seeded,
 * the demo objects included: the generator adds what the base seed lacks.
 */
export type LabScale = 'small' | 'site' | 'enterprise';

export const LAB_SCALES: readonly LabScale[] = ['small', 'site', 'enterprise'];

export interface ScaleSpec {
  /** Devices of class Phone. */
  phones: number;
  endUsers: number;
  /** Directory numbers (numplan rows of pattern usage Device). */
  lines: number;
  /** CUCM subscribers beside the publisher (RisPort reports registrations on each). */
  subscribers: number;
  /** Route and translation patterns together (numplan usages Route and Translation). */
  patterns: number;
  /** Unity Connection users with a mailbox (the undeliverable-messages mailbox counts). */
  cucUsers: number;
  /** IM&P users assigned to each IM&P node (presenceuserassignment rows per node). */
  impUsersPerNode: number;
  /** Sites: a device pool, partitions and a calling search space each. */
  sites: number;
  /** A second cluster's publisher still on CUCM 14.0 (the AXL version downgrade path). */
  legacyCluster: boolean;
  /**
   * Unity Connection as a cluster: the publisher and its secondary server, both active ("two Unity
   * Connection servers that are configured in a cluster ... both the servers are active": Install, Upgrade,
   * and Maintenance Guide for Cisco Unity Connection Release 11.x, "Configuring Cisco Unity Connection
   * Cluster"). Without it the publisher stands alone, as a single-server Connection does.
   */
  cucSubscriber: boolean;
}

/** `small` is the demo as it always was; the others are generated from LAB_SEED on top of it. */
export const SCALES: Readonly<Record<LabScale, ScaleSpec | undefined>> = {
  small: undefined,
  site: {
    phones: 2_000,
    endUsers: 2_000,
    lines: 2_400,
    subscribers: 1,
    patterns: 60,
    cucUsers: 1_500,
    impUsersPerNode: 100,
    sites: 2,
    legacyCluster: true,
    cucSubscriber: true,
  },
  enterprise: {
    phones: 25_000,
    endUsers: 20_000,
    lines: 30_000,
    subscribers: 3,
    patterns: 500,
    cucUsers: 12_000,
    impUsersPerNode: 150,
    sites: 25,
    legacyCluster: true,
    cucSubscriber: true,
  },
};

export function parseScale(value: string | undefined): LabScale {
  const v = (value ?? 'small').trim().toLowerCase();
  if (v === '') return 'small';
  if (!(LAB_SCALES as readonly string[]).includes(v))
    throw new RangeError(`lab scale must be one of ${LAB_SCALES.join(', ')}, got ${value}`);
  return v as LabScale;
}

/** The seed every run uses unless LAB_SEED says otherwise: same seed, same data. */
export const DEFAULT_SEED = 'uc-lab-1';

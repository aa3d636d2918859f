/** A weakness the weak lab profile seeds on purpose, and the audit check that must find it. */
export interface SeededWeakness {
  /** Stable id, e.g. `cucm-tls-min-1.0`. */
  id: string;
  product: 'cucm' | 'imp' | 'cuc';
  /** What is wrong, in the words a report would use. */
  description: string;
  /** The id of the security-audit check that finds it (e.g. `CUCM-TLS-01`). */
  check: string;
  /**
   * Seeded only when listed (`LAB_WEAKNESSES`, startLab `weaknesses`), never by the weak profile: it
   * changes what every other lab user relies on (the CUCM release, hence the AXL schemas served).
   */
  listedOnly?: true;
}

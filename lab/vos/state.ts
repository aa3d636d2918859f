export type VosProduct = 'cucm' | 'imp' | 'cuc';
export type TlsVersion = '1.0' | '1.1' | '1.2' | '1.3';
/** The level keywords of `set trace enable` (CLI reference, Set Commands). */
export type TraceTaskLevel =
  'Arbitrary' | 'Detailed' | 'Entry_exit' | 'Error' | 'Significant' | 'Special' | 'State_Transition';

/** What a node's OS settings are and what its CLI saw; tests read it, CLI commands change it. */
export interface VosState {
  node: string;
  product: VosProduct;
  /** `show tls min-version`; `set tls min-version` changes it. */
  tlsMinVersion: TlsVersion;
  fipsEnabled: boolean;
  /** `utils EnhancedSecurityMode status` (it runs only on a FIPS node). */
  enhancedSecurityMode: boolean;
  /** Minutes before an idle web or CLI session ends (`show webapp|cli session timeout`). */
  webSessionTimeoutMinutes: number;
  cliSessionTimeoutMinutes: number;
  /** SAML single sign-on (`utils sso status`). */
  samlSso: boolean;
  /** SNMP v1/v2c communities and v3 users (`utils snmp config ... list`). */
  snmpCommunities: string[];
  snmpV3Users: { name: string; auth: 'SHA' | 'MD5' | 'None'; priv: 'AES128' | 'DES' | 'None' }[];
  /** Whether ntpd has synchronised the clock (`utils ntp status`). */
  ntpSynchronised: boolean;
  /** Days before the tomcat certificate expires (the weak profile: 10). */
  tomcatCertDays: number;
  /** Password maximum age in days, 0 = disabled (`show password expiry maximum-age`). */
  passwordMaxAgeDays: number;
  passwordMinAgeDays: number;
  /** Confirmed `utils system restart` count. */
  restarts: number;
  /** Services restarted with `utils service restart`. */
  serviceRestarts: string[];
  /** Trace settings per task (`show trace <task>`); `set trace enable|disable` changes them. */
  traces: Record<string, { enabled: boolean; level: TraceTaskLevel }>;
  /** Successful keyboard-interactive logins, refused attempts (any method). */
  logins: number;
  refusedLogins: number;
}

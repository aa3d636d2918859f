import type { SeededWeakness } from './types.ts';

const w = (id: string, description: string, check: string): SeededWeakness => ({
  id,
  product: 'cuc',
  description,
  check,
});

/**
 * What the weak profile seeds on the lab's CUC node (the hardened profile seeds none of it). Where it is
 * seeded: lab/vos/node-os.ts (OS settings, `utils ntp status`), lab/vos/facts.ts (services, certificates),
 * lab/cuc/seed.ts (directory: policies, PINs, roles, restriction tables, API settings),
 * lab/cuc/cupi/lists-and-coses.ts (classes of service), lab/cuc/drf.ts
 * (backups).
 */
export const CUC_WEAKNESSES: readonly SeededWeakness[] = [
  w(
    'cuc-os-password-max-age',
    'The OS administrator password never expires (maximum age disabled).',
    'CUC-OS-01',
  ),
  w('cuc-os-password-min-age', 'The OS administrator password has no minimum age.', 'CUC-OS-02'),
  w('cuc-tls-min-1.0', 'The node accepts TLS 1.0 on its secure interfaces.', 'CUC-TLS-01'),
  w('cuc-fips-off', 'The node runs in non-FIPS mode.', 'CUC-FIPS-01'),
  w('cuc-tomcat-self-signed', 'The tomcat (web and CUPI) certificate is self-signed.', 'CUC-CRT-01'),
  w('cuc-tomcat-expiring', 'The tomcat certificate expires in 10 days.', 'CUC-CRT-02'),
  w('cuc-pin-min-length', 'The voicemail PIN policy accepts 4-digit PINs.', 'CUC-PIN-01'),
  w('cuc-pin-trivial', 'The voicemail PIN policy accepts trivial PINs (12345, 1111).', 'CUC-PIN-02'),
  w('cuc-pin-no-expiry', 'Voicemail PINs never expire under the PIN policy.', 'CUC-PIN-03'),
  w('cuc-pin-no-lockout', 'Wrong PINs never lock a mailbox.', 'CUC-PIN-04'),
  w('cuc-pin-no-history', 'The PIN policy keeps no history, so an old PIN can be reused.', 'CUC-PIN-05'),
  w(
    'cuc-default-pins',
    'Three mailboxes (jsmith, mlee, rjones) still have the template PIN 12345 they were created with, with no forced change.',
    'CUC-PIN-06',
  ),
  w('cuc-pins-never-expire', 'Those three mailboxes have PINs marked "does not expire".', 'CUC-PIN-07'),
  w(
    'cuc-mailbox-admin',
    'The mailbox user mlee holds the System Administrator role (and so may use CUPI).',
    'CUC-ACC-01',
  ),
  w('cuc-web-password-short', 'Web-application (CUPI) passwords may be 8 characters long.', 'CUC-API-01'),
  w('cuc-web-no-lockout', 'Failed web-application (CUPI) sign-ins never lock the account.', 'CUC-API-02'),
  w(
    'cuc-web-no-expiry',
    'Web-application passwords never expire and no previous passwords are remembered.',
    'CUC-API-03',
  ),
  w('cuc-paws-running', 'The Platform Administrative Web Service runs though nothing uses it.', 'CUC-SVC-01'),
  w('cuc-audit-stopped', 'The Cisco Audit Event Service is stopped.', 'CUC-AUD-01'),
  w('cuc-no-recent-backup', 'The last backup ran 45 days ago; the schedule is off.', 'CUC-BKP-01'),
  w(
    'cuc-transfer-international',
    'Default Transfer allows international numbers (9011* unblocked).',
    'CUC-RST-01',
  ),
  w(
    'cuc-system-transfer-open',
    'Default System Transfer, used by callers who have not signed in, blocks only international numbers: long distance is open.',
    'CUC-RST-02',
  ),
  w('cuc-ntp-unsynchronised', 'The clock is not synchronised to an NTP server.', 'CUC-OS-03'),
  w(
    'cuc-pin-no-min-duration',
    'The PIN policy lets a PIN be changed again at once (no minimum duration), so the history can be cycled.',
    'CUC-PIN-08',
  ),
  w('cuc-web-trivial', 'The web-application password policy accepts trivial passwords.', 'CUC-API-04'),
  w(
    'cuc-cumi-secure-attachments',
    'CUMI clients may fetch the recordings of secure messages (API Settings).',
    'CUC-API-05',
  ),
  w(
    'cuc-web-inbox-enabled',
    'The Voice Mail User COS grants the Web Inbox (the exposure condition of CVE-2026-20035).',
    'CUC-API-06',
  ),
];

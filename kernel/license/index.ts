// The license gate's public surface: startup step 8, the tool runner, /status, license_checker.
export { LicenseGate, type LicenseGateOptions, type LicenseListener } from './gate.ts';
export {
  evaluateLicense,
  inspectLicense,
  type LicenseEvaluation,
  type SignatureVerdict,
} from './evaluate.ts';
export {
  LICENSE_ALG,
  LICENSE_TYP,
  MAX_LICENSED_HOSTS,
  PRODUCTS,
  coversHost,
  licenseClaimsSchema,
  licensedHosts,
  sameHost,
  type LicenseClaims,
  type Product,
} from './claims.ts';
export { watchFile, type FileWatch } from './watcher.ts';

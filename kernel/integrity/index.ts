// The integrity check's public surface: what startup, the loader, the infra tools and scripts use.
export { IntegrityChecker, AUDIT_MAX_FILES, type IntegrityCheckerOptions } from './checker.ts';
export { verifyTree, bundleStatus, bundleLoadable, type VerifyOptions } from './verify.ts';
export { readTrustRoot, usableKeys, type TrustRoot } from './trust.ts';
export {
  readPublisherKeys,
  parsePublisherKey,
  keyFingerprint,
  PUBLISHER_ID,
  type PublisherKey,
} from './publishers.ts';
export type {
  BundleReport,
  BundleSource,
  FileFinding,
  FileState,
  IntegrityMode,
  IntegrityReport,
  IntegrityStatus,
} from './types.ts';
export { INTEGRITY_MODES } from './types.ts';
export { integrityVerdict, integritySummary, type IntegrityVerdict } from './verdict.ts';

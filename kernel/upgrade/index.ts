// Signed upgrade packages, the runner side (docs/operations.md, "Upgrades"). The vendor side that builds
// packages is kernel/vendor/upgrade-package.ts.
export {
  runUpgrade,
  UPGRADE_DIR,
  HISTORY_FILE,
  type RunUpgradeOptions,
  type UpgradeOutcome,
  type BackupRef,
} from './run.ts';
export { openPackage, type VerifiedPackage, type OpenPackageOptions } from './open-package.ts';
export { readInstallation, type Installation } from './installation.ts';
export { planUpgrade, type UpgradePlan, type PlannedFile, type FileAction } from './plan.ts';
export { applyPlan, applySteps, type ApplyResult } from './apply.ts';
export { rollback, RECORD_FILE, type RollbackRecord } from './rollback.ts';
export { describePlan } from './describe-plan.ts';
export { mergeEnv, upgradeComment, type EnvChange, type EnvMerge } from './env-merge.ts';
export { envDefaultsFromExample, parseEnvText } from './env-file.ts';
export { UpgradeRefused, type RefusalStage } from './errors.ts';
export * from './format.ts';
export { inPackageScope, PACKAGE_DIRS, PACKAGE_FILES } from './scope.ts';
export { compareSemVer, isSemVer, parseSemVer } from './semver.ts';

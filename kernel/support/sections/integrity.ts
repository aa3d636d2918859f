import { verifyTree, type IntegrityMode } from '../../integrity/index.ts';
import type { HashProgress } from '../../integrity/hash.ts';

/**
 * The manifest verification result, computed now (the same check as startup step 4 and the 24-hour
 * watchdog). Findings carry paths and hashes only; nothing here is secret.
 */
export async function integritySection(
  projectRoot: string,
  mode: IntegrityMode,
  onProgress?: (p: HashProgress) => void,
): Promise<Record<string, unknown>> {
  const { report } = await verifyTree(projectRoot, onProgress ? { onProgress } : {});
  return {
    mode,
    status: report.status,
    publisher: report.publisher ?? null,
    reason: report.reason ?? null,
    checked_at: report.checkedAt,
    duration_ms: report.durationMs,
    files_checked: report.filesChecked,
    findings: report.files,
    bundles: Object.values(report.bundles).map((b) => ({
      id: b.id,
      status: b.status,
      source: b.source,
      publisher: b.publisher ?? null,
      version: b.version ?? null,
      reason: b.reason ?? null,
      findings: b.files.length,
    })),
  };
}

import { hashEntries, type HashProgress } from './hash.ts';
import { describe, finding, verifyOwnBundle } from './bundles.ts';
import { readTrustRoot, type TrustRoot } from './trust.ts';
import { bundleIdOf, listCoveredFiles, type TreeEntry } from './tree.ts';
import type { BundleReport, FileFinding, IntegrityReport } from './types.ts';

export interface VerifyOptions {
  /** Time source for `checkedAt` (the kernel's clock). */
  clock?: () => number;
  onProgress?: (p: HashProgress) => void;
}

/**
 * Verifies the shipped tree below `root` against manifests/manifest.json and every plugin bundle
 * against the manifest or its own bundle.json. Never throws for what it finds; only an I/O error other
 * than "file not found" escapes.
 */
export async function verifyTree(
  root: string,
  opts: VerifyOptions = {},
): Promise<{ report: IntegrityReport; trust: TrustRoot }> {
  const started = performance.now();
  const clock = opts.clock ?? Date.now;
  const trust = await readTrustRoot(root);
  const entries = await listCoveredFiles(root);
  const hashes = await hashEntries(root, entries, opts.onProgress);
  const listed = trust.manifest?.files ?? {};

  // A bundle belongs to the main manifest when the manifest lists a file in its folder.
  const manifestBundles = new Set(Object.keys(listed).flatMap((p) => bundleIdOf(p) ?? []));
  const onDisk = new Map<string, TreeEntry[]>();
  for (const e of entries) {
    const id = bundleIdOf(e.path);
    if (id === undefined) continue;
    const list = onDisk.get(id);
    if (list) list.push(e);
    else onDisk.set(id, [e]);
  }

  const main: FileFinding[] = [];
  let filesChecked = 0;
  if (trust.status === 'valid') {
    for (const [path, expected] of Object.entries(listed)) {
      const actual = hashes.get(path);
      if (actual === undefined) main.push(finding(path, 'missing', bundleIdOf(path), expected));
      else if (actual !== expected) main.push(finding(path, 'modified', bundleIdOf(path), expected, actual));
    }
    filesChecked += Object.keys(listed).length;
    for (const e of entries) {
      const id = bundleIdOf(e.path);
      if (id !== undefined && !manifestBundles.has(id)) continue;
      // hasOwn, not `in`: a file named like an Object.prototype member must not pass as listed.
      if (!Object.hasOwn(listed, e.path))
        main.push(finding(e.path, 'unlisted', id, undefined, hashes.get(e.path)));
    }
  }

  const bundles: Record<string, BundleReport> = {};
  const mainStatus = trust.status;
  for (const id of [...new Set([...manifestBundles, ...onDisk.keys()])].sort()) {
    if (mainStatus === 'valid' && manifestBundles.has(id)) {
      const files = main.filter((f) => f.bundle === id);
      bundles[id] = {
        id,
        status: files.length > 0 ? 'modified' : 'valid',
        source: 'manifest',
        ...(trust.publisher ? { publisher: trust.publisher } : {}),
        ...(files.length > 0 ? { reason: describe(files) } : {}),
        files,
      };
      continue;
    }
    const own = await verifyOwnBundle({
      root,
      id,
      entries: onDisk.get(id) ?? [],
      hashes,
      keys: mainStatus === 'valid' ? trust.keys.filter((k) => k.vouched) : trust.keys,
      ...(mainStatus === 'valid' ? {} : { cap: mainStatus }),
    });
    filesChecked += own.checked;
    // Without a valid manifest nothing vouches for an unsigned bundle's files: it inherits the main
    // status, and listing every file of a development checkout as unlisted would only bury the signal.
    bundles[id] =
      mainStatus !== 'valid' && own.report.source === 'none'
        ? { ...own.report, status: mainStatus, reason: trust.reason ?? mainStatus, files: [] }
        : own.report;
  }

  const files = [...main, ...Object.values(bundles).flatMap((b) => (b.source === 'manifest' ? [] : b.files))];
  const badBundles = Object.values(bundles).filter((b) => b.status !== 'valid');
  let status: IntegrityReport['status'] = mainStatus;
  let reason = trust.reason;
  if (mainStatus === 'valid' && (main.length > 0 || badBundles.length > 0)) {
    status = 'modified';
    reason = [
      main.length > 0 ? describe(main) : '',
      ...badBundles.filter((b) => b.source !== 'manifest').map((b) => `bundle ${b.id} ${b.status}`),
    ]
      .filter(Boolean)
      .join('; ');
  }
  const report: IntegrityReport = {
    status,
    ...(trust.publisher ? { publisher: trust.publisher } : {}),
    ...(reason ? { reason } : {}),
    checkedAt: new Date(clock()).toISOString(),
    durationMs: Math.round(performance.now() - started),
    filesChecked,
    files,
    bundles,
  };
  return { report, trust };
}

/** The status of one bundle for the loader; a bundle the check never saw counts as unsigned. */
export function bundleStatus(report: IntegrityReport, id: string): IntegrityReport['status'] {
  return report.bundles[id]?.status ?? 'unsigned';
}

/** Whether the loader may register a bundle: valid in enforce mode; anything in warn mode. */
export function bundleLoadable(report: IntegrityReport, id: string, mode: 'enforce' | 'warn'): boolean {
  return mode === 'warn' || bundleStatus(report, id) === 'valid';
}

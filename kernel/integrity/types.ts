/**
 * Verification gives a status, never an exception (STYLE.md point 6):
 * - valid: signed by a trusted publisher and every covered file matches;
 * - unsigned: no manifest, or no signature;
 * - invalid: the signature does not verify with the named trusted publisher key, or the manifest is malformed;
 * - modified: the signature verifies but a listed file differs or is missing, or an unlisted file sits in
 *   a covered area.
 */
export type IntegrityStatus = 'valid' | 'unsigned' | 'invalid' | 'modified';

/** What is wrong with one file: its content differs, it is gone, or nobody signed it. */
export type FileState = 'modified' | 'missing' | 'unlisted';

export interface FileFinding {
  /** POSIX path relative to the project root. */
  path: string;
  state: FileState;
  /** SHA-512 hex the signed manifest (or bundle.json) records; absent for an unlisted file. */
  expected?: string;
  /** SHA-512 hex of the file on disk, or `symlink -> <target>`; absent for a missing file. */
  actual?: string;
  /** The plugin bundle the file belongs to, when it is inside `plugins/<id>/`. */
  bundle?: string;
}

/** Where a bundle's signature comes from: the main manifest, its own bundle.json + bundle.sig, or nowhere. */
export type BundleSource = 'manifest' | 'bundle' | 'none';

export interface BundleReport {
  id: string;
  status: IntegrityStatus;
  source: BundleSource;
  publisher?: string;
  version?: string;
  /** One sentence for the log line when the status is not valid. */
  reason?: string;
  files: FileFinding[];
}

export interface IntegrityReport {
  /** Overall status: the main manifest's, or `modified` when it is valid but a bundle is not. */
  status: IntegrityStatus;
  /** Publisher id named by the main manifest. */
  publisher?: string;
  reason?: string;
  checkedAt: string;
  durationMs: number;
  /** Files hashed and compared (main manifest and bundle manifests). */
  filesChecked: number;
  /** Every finding, main manifest and bundles together. */
  files: FileFinding[];
  bundles: Record<string, BundleReport>;
}

/**
 * `enforce`: only bundles whose status is valid are loaded, and only publisher keys vouched for by a
 * valid manifest are trusted. `warn`: development checkouts; everything is loaded and every key on disk
 * is trusted, but each failure is still logged CRITICAL.
 */
export type IntegrityMode = 'enforce' | 'warn';

export const INTEGRITY_MODES: readonly IntegrityMode[] = ['enforce', 'warn'];

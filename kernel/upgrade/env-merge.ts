// The .env merge rules of the spec (Versioning 4): new keys (settings the installed version did not have)
// are added with their default values and a comment naming the upgrade version; PROJECT_VERSION, PROJECT_NAME and PROJECT_CREATOR are always
// overwritten; every other existing key is left exactly as the operator wrote it.
import { parseEnvText, renderEnv } from './env-file.ts';
import { ALWAYS_OVERWRITTEN, type UpgradeManifest } from './format.ts';

export interface EnvChange {
  key: string;
  /** added: appended with its default; overwritten: a PROJECT_* value rewritten; kept: the operator's value stays. */
  change: 'added' | 'overwritten' | 'kept';
  /** The value before (overwritten only; a kept value is never shown, it may be a secret). */
  from?: string;
  /** The value written (added and overwritten). */
  to?: string;
}

export interface EnvMerge {
  changes: EnvChange[];
  /** The merged file's text. */
  text: string;
}

export function upgradeComment(version: string): string {
  return `# added by upgrade ${version}`;
}

/**
 * Merges the package's settings into the text of an existing .env. Pure: the caller writes the result.
 * `knownKeys` are the settings the installed version already had (its .env.example): one of those the
 * operator left out of .env was left out on purpose (its default applies) and is not added back. Without
 * them every setting missing from .env counts as new.
 */
export function mergeEnv(
  existing: string,
  manifest: Pick<UpgradeManifest, 'version' | 'env'>,
  knownKeys: ReadonlySet<string> = new Set(),
): EnvMerge {
  const doc = parseEnvText(existing);
  const defaults = new Map(manifest.env.map((e) => [e.key, e]));
  const forced = new Map<string, string>();
  for (const key of ALWAYS_OVERWRITTEN) {
    // The version is the package's own, whatever the vendor's .env.example said (it is usually empty there).
    const value = key === 'PROJECT_VERSION' ? manifest.version : defaults.get(key)?.value;
    if (value !== undefined) forced.set(key, value);
  }

  const changes: EnvChange[] = [];
  const present = new Set(doc.assignments.map((a) => a.key));
  const lines = [...doc.lines];
  // Rewrite from the bottom up so earlier line numbers stay valid when a multi-line value shrinks to one.
  for (const a of [...doc.assignments].reverse()) {
    const value = forced.get(a.key);
    if (value === undefined || a.value === value) continue;
    lines.splice(a.start, a.end - a.start, `${a.prefix}${value}`);
    changes.unshift({ key: a.key, change: 'overwritten', from: a.value, to: value });
  }
  for (const key of present) {
    if (defaults.has(key) && !forced.has(key)) changes.push({ key, change: 'kept' });
  }

  // In the order of the new .env.example; PROJECT_VERSION is added even when the example lacks it.
  const additions = manifest.env
    .filter((e) => !present.has(e.key) && (forced.has(e.key) || !knownKeys.has(e.key)))
    .map((e) => ({ ...e, value: forced.get(e.key) ?? e.value }));
  for (const [key, value] of forced)
    if (!present.has(key) && !defaults.has(key)) additions.push({ key, value, comment: [] });
  for (const e of additions) {
    if (lines.length > 0 && (lines[lines.length - 1] as string).trim() !== '') lines.push('');
    lines.push(upgradeComment(manifest.version), ...e.comment.map((c) => `# ${c}`.trimEnd()));
    lines.push(`${e.key}=${e.value}`);
    changes.push({ key: e.key, change: 'added', to: e.value });
  }
  // Nothing to change: the file stays byte for byte as it was (even without a final newline).
  const touched = changes.some((c) => c.change !== 'kept');
  return { changes, text: touched ? renderEnv({ lines, eol: doc.eol }) : existing };
}

// The one planning function: --dry-run prints its result, the real run applies exactly that result. Both
// therefore see the same file actions and the same merged .env, which is what makes the preview honest.
import { createHash } from 'node:crypto';
import { lstat, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { mergeEnv, type EnvChange } from './env-merge.ts';
import { UpgradeRefused } from './errors.ts';
import type { Installation } from './installation.ts';
import type { VerifiedPackage } from './open-package.ts';
import { compareSemVer, isSemVer } from './semver.ts';

/** replace/create/delete change a file; unchanged and absent need nothing (already as the package wants). */
export type FileAction = 'replace' | 'create' | 'unchanged' | 'delete' | 'absent';

export interface PlannedFile {
  path: string;
  action: FileAction;
  /** SHA-512 of the installed file when the plan was made (replace, unchanged, delete). */
  installed?: string;
}

export interface UpgradePlan {
  product: string;
  from: string;
  to: string;
  root: string;
  stateDir: string;
  package: { file: string; sha512: string; signer: { id: string; fingerprint: string } };
  /** Sorted by path. */
  files: PlannedFile[];
  env: {
    file: string;
    /** False when the installation has no .env: nothing is merged, the embedded defaults apply. */
    exists: boolean;
    changes: EnvChange[];
    before: string | null;
    after: string | null;
  };
  changelog: string;
  postUpgrade: string[];
}

export async function planUpgrade(pkg: VerifiedPackage, inst: Installation): Promise<UpgradePlan> {
  const m = pkg.manifest;
  checkVersions(m.product, m.version, m.min_from_version, inst);
  const files: PlannedFile[] = [];
  for (const f of m.files) {
    const current = await inspect(inst.root, f.path);
    if (current.kind === 'other')
      throw new UpgradeRefused('install', `cannot ${f.action} ${f.path}: ${current.what}`);
    if (f.action === 'delete') {
      files.push(
        current.kind === 'missing'
          ? { path: f.path, action: 'absent' }
          : { path: f.path, action: 'delete', installed: current.sha512 },
      );
    } else if (current.kind === 'missing') {
      files.push({ path: f.path, action: 'create' });
    } else {
      const same = current.sha512 === f.sha512 && current.executable === (f.mode === 0o755);
      files.push({ path: f.path, action: same ? 'unchanged' : 'replace', installed: current.sha512 });
    }
  }
  files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  const merged = inst.envText === null ? null : mergeEnv(inst.envText, m, inst.knownEnvKeys ?? undefined);
  return {
    product: m.product,
    from: inst.version,
    to: m.version,
    root: inst.root,
    stateDir: inst.stateDir,
    package: { file: pkg.file, sha512: pkg.sha512, signer: pkg.signer },
    files,
    env: {
      file: inst.envFile,
      exists: merged !== null,
      changes: merged?.changes ?? [],
      before: inst.envText,
      after: merged?.text ?? null,
    },
    changelog: m.changelog,
    postUpgrade: m.post_upgrade,
  };
}

function checkVersions(product: string, to: string, minFrom: string, inst: Installation): void {
  if (product !== inst.product)
    throw new UpgradeRefused(
      'version',
      `this package is for ${product}; the installation is ${inst.product}`,
    );
  if (!isSemVer(inst.version))
    throw new UpgradeRefused('version', `the installed version "${inst.version}" is not a semantic version`);
  const order = compareSemVer(to, inst.version);
  if (order === 0) throw new UpgradeRefused('version', `same version: ${inst.version} is already installed`);
  if (order < 0)
    throw new UpgradeRefused(
      'version',
      `downgrade refused: the package holds ${to}, older than the installed ${inst.version}`,
    );
  if (compareSemVer(inst.version, minFrom) < 0)
    throw new UpgradeRefused(
      'version',
      `the installed ${inst.version} is too old for this package: upgrade to ${minFrom} or later first`,
    );
}

type Current =
  | { kind: 'missing' }
  | { kind: 'file'; sha512: string; executable: boolean }
  | { kind: 'other'; what: string };

/**
 * What sits at `path` now. A symbolic link, a folder or anything special there, or on the way there, is
 * refused rather than written through: a link could carry the write outside the installation.
 */
async function inspect(root: string, path: string): Promise<Current> {
  const parts = path.split('/');
  for (let i = 1; i <= parts.length; i++) {
    const rel = parts.slice(0, i).join('/');
    let st;
    try {
      st = await lstat(join(root, rel));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return { kind: 'missing' };
      throw err;
    }
    const last = i === parts.length;
    if (st.isSymbolicLink()) return { kind: 'other', what: `${rel} is a symbolic link` };
    if (!last && !st.isDirectory()) return { kind: 'other', what: `${rel} is not a folder` };
    if (last && !st.isFile()) return { kind: 'other', what: `${rel} is not a regular file` };
    if (last) {
      const sha512 = createHash('sha512')
        .update(await readFile(join(root, rel)))
        .digest('hex');
      return { kind: 'file', sha512, executable: (st.mode & 0o111) !== 0 };
    }
  }
  return { kind: 'missing' };
}

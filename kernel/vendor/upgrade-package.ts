// Builds a signed upgrade package from the source tree of a release (vendor side; the runner is
// kernel/upgrade/). The package holds every shipped file of the release, so it upgrades any older
// installation down to its min_from_version, not only the one right before it.
import { createHash, type KeyObject } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, statSync } from 'node:fs';
import { copyFile, mkdir, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { create as createTar } from 'tar';
import { sha512File } from '../integrity/hash.ts';
import { MANIFEST_FILE, MANIFEST_SIG, listFilesUnder, type TreeEntry } from '../integrity/tree.ts';
import { writeFileAtomic } from '../store/atomic-file.ts';
import { envDefaultsFromExample } from '../upgrade/env-file.ts';
import {
  FILES_PREFIX,
  MANIFEST_ENTRY,
  RUNNER_FILE,
  checksumLine,
  packageFileName,
  serializeUpgradeManifest,
  upgradeManifestSchema,
  type UpgradeManifest,
} from '../upgrade/format.ts';
import { PACKAGE_DIRS, PACKAGE_FILES, inPackageScope } from '../upgrade/scope.ts';
import { isSemVer } from '../upgrade/semver.ts';
import { isInside } from './keys.ts';
import { findInstalledPublisher, signManifest } from './manifest.ts';
import { signDetached } from './sign.ts';

/** What every upgrade ends with (spec Versioning 3: the container is rebuilt and restarted afterwards). */
export const DEFAULT_POST_UPGRADE = [
  'Rebuild the image from the upgraded tree: docker build -t uc-mcp-server .',
  'Start the container again as before (same volume, same --hostname, same --env-file).',
  'Check the integrity of the upgraded tree: node --import tsx scripts/update_manifest.ts --check',
];

const RUNNER_SOURCE = 'upgrade/run_upgrade.ts';

export interface BuildUpgradePackageOptions {
  /** The source tree of the new release. */
  from: string;
  /** Must equal the version in the tree's package.json. */
  version: string;
  privateKey: KeyObject;
  /** Where the package, its signature, its checksum and the runner are written. */
  out: string;
  /** The previous release's tree: the files it shipped that this release no longer has are deleted. */
  previous?: string;
  /** Oldest installed version the package accepts (default: the previous tree's version, else 0.0.0). */
  minFromVersion?: string;
  changelog?: string;
  /** The .env.example text giving the settings and their defaults (default: the tree's .env.example). */
  envExample?: string;
  /** Steps printed after the upgrade, after the default rebuild-and-restart ones. */
  postUpgrade?: string[];
  now?: () => number;
}

export interface BuiltPackage {
  file: string;
  signatureFile: string;
  checksumFile: string;
  runnerFile: string;
  sha512: string;
  manifest: UpgradeManifest;
}

export async function buildUpgradePackage(opts: BuildUpgradePackageOptions): Promise<BuiltPackage> {
  const from = resolve(opts.from);
  const pkg = await readPackageJson(from);
  if (!isSemVer(opts.version)) throw new Error(`version "${opts.version}" is not a semantic version x.y.z`);
  if (pkg.version !== opts.version)
    throw new Error(
      `${from}/package.json says ${pkg.version}, not ${opts.version}: set the release version first`,
    );
  const out = resolve(opts.out);
  if (PACKAGE_DIRS.some((d) => isInside(out, join(from, d))))
    throw new Error(`${out} is inside a shipped folder of ${from}: the package would contain itself`);
  const name = packageFileName(pkg.name, opts.version);
  const file = join(out, name);
  if (existsSync(file)) throw new Error(`${file} already exists; a published package is never overwritten`);

  const sources = await listPackageFiles(from);
  if (!sources.includes(RUNNER_SOURCE))
    throw new Error(`${from} has no ${RUNNER_SOURCE}: the runner ships with every package`);
  const stage = mkdtempSync(join(tmpdir(), 'ucmcp-upgrade-package-'));
  try {
    // The release tree is staged and its integrity manifest signed there, so the upgraded installation
    // verifies as `valid` whatever state the vendor's working tree was in.
    const tree = join(stage, 'files');
    for (const path of sources) {
      await mkdir(dirname(join(tree, path)), { recursive: true });
      await copyFile(join(from, path), join(tree, path));
    }
    const publisher = await findInstalledPublisher(tree, opts.privateKey);
    if (!publisher)
      throw new Error(
        `the signing key is not installed in ${from}/manifests/publishers/: an installation could not verify the release`,
      );
    await signManifest({
      root: tree,
      privateKey: opts.privateKey,
      publisher,
      ...(opts.now ? { now: opts.now } : {}),
    });

    const shipped = [...sources, MANIFEST_FILE, MANIFEST_SIG].sort();
    const writes = await Promise.all(
      shipped.map(async (path) => ({
        path,
        action: 'write' as const,
        sha512: await sha512File(join(tree, path)),
        size: statSync(join(tree, path)).size,
        mode: executable(join(from, path)) ? (0o755 as const) : (0o644 as const),
      })),
    );
    const previous = opts.previous ? resolve(opts.previous) : undefined;
    const gone = previous ? (await listPackageFiles(previous)).filter((p) => !shipped.includes(p)) : [];
    const envText = opts.envExample ?? (await readFile(join(from, '.env.example'), 'utf8').catch(() => ''));
    const manifest = upgradeManifestSchema.parse({
      format: 1,
      product: pkg.name,
      version: opts.version,
      min_from_version:
        opts.minFromVersion ?? (previous ? (await readPackageJson(previous)).version : '0.0.0'),
      publisher,
      generated_at: new Date((opts.now ?? Date.now)()).toISOString(),
      files: [...writes, ...gone.map((path) => ({ path, action: 'delete' as const }))],
      env: envDefaultsFromExample(envText).map((e) =>
        e.key === 'PROJECT_VERSION' ? { ...e, value: opts.version } : e,
      ),
      changelog: opts.changelog ?? '',
      post_upgrade: [...DEFAULT_POST_UPGRADE, ...(opts.postUpgrade ?? [])],
    });
    writeFileAtomic(join(stage, MANIFEST_ENTRY), serializeUpgradeManifest(manifest), 0o644);

    await mkdir(out, { recursive: true });
    const tmp = `${file}.${process.pid}.tmp`;
    await createTar(
      // portable: no owner, group or device numbers of the vendor's machine in the archive.
      {
        file: tmp,
        cwd: stage,
        gzip: true,
        portable: true,
        mtime: new Date(manifest.generated_at),
        strict: true,
      },
      [MANIFEST_ENTRY, ...shipped.map((p) => FILES_PREFIX + p)],
    );
    const archive = await readFile(tmp);
    rmSync(tmp, { force: true });
    const sha512 = createHash('sha512').update(archive).digest('hex');
    writeFileAtomic(`${file}.sig`, signDetached(opts.privateKey, archive), 0o644);
    writeFileAtomic(`${file}.sha512`, checksumLine(sha512, name), 0o644);
    writeFileAtomic(join(out, RUNNER_FILE), await readFile(join(from, RUNNER_SOURCE)), 0o755);
    writeFileAtomic(file, archive, 0o644);
    return {
      file,
      signatureFile: `${file}.sig`,
      checksumFile: `${file}.sha512`,
      runnerFile: join(out, RUNNER_FILE),
      sha512,
      manifest,
    };
  } finally {
    rmSync(stage, { recursive: true, force: true });
  }
}

/**
 * The files of a tree an upgrade package carries (kernel/upgrade/scope.ts), except the integrity
 * manifest, which is signed afresh for the staged release. Refuses links and special files.
 */
export async function listPackageFiles(root: string): Promise<string[]> {
  const entries: TreeEntry[] = [];
  for (const dir of PACKAGE_DIRS) entries.push(...(await listFilesUnder(root, dir)));
  for (const f of PACKAGE_FILES) {
    const st = statSync(join(root, f), { throwIfNoEntry: false });
    if (st?.isFile()) entries.push({ path: f });
    else if (st) entries.push({ path: f, irregular: 'not a regular file' });
  }
  const irregular = entries.filter((e) => e.irregular !== undefined);
  if (irregular.length > 0)
    throw new Error(
      `a release holds regular files only; found ${irregular.map((e) => `${e.path} (${e.irregular})`).join(', ')}`,
    );
  const skip = new Set<string>([MANIFEST_FILE, MANIFEST_SIG]);
  const paths = entries.map((e) => e.path).filter((p) => !skip.has(p));
  const outside = paths.filter((p) => !inPackageScope(p));
  if (outside.length > 0) throw new Error(`cannot ship ${outside.join(', ')}`);
  return [...new Set(paths)].sort();
}

function executable(path: string): boolean {
  return ((statSync(path, { throwIfNoEntry: false })?.mode ?? 0) & 0o111) !== 0;
}

async function readPackageJson(root: string): Promise<{ name: string; version: string }> {
  const pkg = JSON.parse(await readFile(join(root, 'package.json'), 'utf8')) as {
    name?: unknown;
    version?: unknown;
  };
  if (typeof pkg.name !== 'string' || typeof pkg.version !== 'string')
    throw new Error(`${relative(process.cwd(), join(root, 'package.json'))} names no product or version`);
  return { name: pkg.name, version: pkg.version };
}

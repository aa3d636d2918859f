// The upgrade package format (docs/operations.md, "Upgrades"):
//
//   <product>-<version>.tar.gz          gzip tar: upgrade-manifest.json, then files/<path> for every file
//   <product>-<version>.tar.gz.sig      base64 RSA-PSS-SHA-512 signature over the exact .tar.gz bytes
//   <product>-<version>.tar.gz.sha512   "<hex>  <name>": the checksum the vendor publishes (DNS TXT)
//   run_upgrade.ts                      the runner, placed with the package in upgrade/
//
// The signature covers the archive, so nothing inside it is read before the signature verifies.
import { z } from 'zod';
import { SHA512_HEX } from '../integrity/hash.ts';
import { PUBLISHER_ID } from '../integrity/publishers.ts';
import { inPackageScope } from './scope.ts';
import { isSemVer } from './semver.ts';

export const MANIFEST_ENTRY = 'upgrade-manifest.json';
/** Payload files live below this prefix, so no shipped file can be mistaken for the manifest. */
export const FILES_PREFIX = 'files/';
export const RUNNER_FILE = 'run_upgrade.ts';

/** A package whose archive is larger is refused before it is read (the real tree packs to well under 1 MB). */
export const MAX_PACKAGE_BYTES = 256 * 1024 * 1024;
/** Total unpacked size accepted: a small archive that inflates without end is refused early. */
export const MAX_UNPACKED_BYTES = 1024 * 1024 * 1024;
export const MAX_MANIFEST_BYTES = 16 * 1024 * 1024;

/** Settings the spec says an upgrade always rewrites in .env (Versioning 4). */
export const ALWAYS_OVERWRITTEN = ['PROJECT_VERSION', 'PROJECT_NAME', 'PROJECT_CREATOR'] as const;

export const PRODUCT_NAME = /^[a-z0-9][a-z0-9._-]{0,63}$/;
export const ENV_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

const semver = z.string().refine(isSemVer, 'a semantic version x.y.z');
const packagePath = z
  .string()
  .refine(inPackageScope, 'a relative POSIX path inside the areas an upgrade may change');

const writeEntry = z
  .object({
    path: packagePath,
    action: z.literal('write'),
    sha512: z.string().regex(SHA512_HEX, 'a lowercase SHA-512 hex digest'),
    size: z.number().int().nonnegative(),
    /** Only the two modes a shipped file has: executable or not. */
    mode: z.union([z.literal(0o644), z.literal(0o755)]),
  })
  .strict();

const deleteEntry = z.object({ path: packagePath, action: z.literal('delete') }).strict();

const envEntry = z
  .object({
    key: z.string().regex(ENV_KEY),
    /** The text after `=`, exactly as it is written into .env. */
    value: z.string().refine((v) => !/[\r\n]/.test(v), 'a single line'),
    /** The description lines that precede the key in .env.example, without their `#`. */
    comment: z.array(z.string().refine((v) => !/[\r\n]/.test(v), 'a single line')),
  })
  .strict();

/** `upgrade-manifest.json`, the first entry of the archive. */
export const upgradeManifestSchema = z
  .object({
    format: z.literal(1),
    /** Must equal the installed package.json name. */
    product: z.string().regex(PRODUCT_NAME),
    /** The version this package installs. */
    version: semver,
    /** The oldest installed version this package upgrades; anything older must go through it first. */
    min_from_version: semver,
    /** Who built it (informative: the detached signature decides trust). */
    publisher: z.string().regex(PUBLISHER_ID),
    generated_at: z.iso.datetime(),
    files: z
      .array(z.discriminatedUnion('action', [writeEntry, deleteEntry]))
      .refine((list) => new Set(list.map((f) => f.path)).size === list.length, 'each path once')
      .refine(
        (list) => list.some((f) => f.path === 'package.json' && f.action === 'write'),
        'package.json must be written: it records the installed version',
      ),
    /** Every setting of the new version with its default (from its .env.example). */
    env: z
      .array(envEntry)
      .refine((list) => new Set(list.map((e) => e.key)).size === list.length, 'each key once'),
    changelog: z.string().max(1_000_000),
    post_upgrade: z.array(z.string().min(1).max(2000)).max(100),
  })
  .strict();
export type UpgradeManifest = z.infer<typeof upgradeManifestSchema>;
export type WriteEntry = z.infer<typeof writeEntry>;
export type EnvDefault = z.infer<typeof envEntry>;

/** `uc-mcp-server-1.1.0.tar.gz` */
export function packageFileName(product: string, version: string): string {
  return `${product}-${version}.tar.gz`;
}

/** The bytes the vendor writes: two-space JSON with a final newline (the archive is what is signed). */
export function serializeUpgradeManifest(m: UpgradeManifest): Buffer {
  return Buffer.from(`${JSON.stringify(m, null, 2)}\n`, 'utf8');
}

/** The `.sha512` file's text, in the format `sha512sum -c` reads. */
export function checksumLine(hex: string, fileName: string): string {
  return `${hex}  ${fileName}\n`;
}

/** The hex digest from a `.sha512` file or an operator's input (`sha512sum` output is accepted too). */
export function parseChecksum(text: string): string | null {
  const hex = text.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
  return SHA512_HEX.test(hex) ? hex : null;
}

import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';
import { basename } from 'node:path';
import type { PublisherKey } from '../integrity/publishers.ts';
import { verifyDetached } from '../integrity/signature.ts';
import { readOptional } from '../integrity/tree.ts';
import { UpgradeRefused } from './errors.ts';
import {
  FILES_PREFIX,
  MANIFEST_ENTRY,
  MAX_MANIFEST_BYTES,
  MAX_PACKAGE_BYTES,
  MAX_UNPACKED_BYTES,
  parseChecksum,
  upgradeManifestSchema,
  type UpgradeManifest,
} from './format.ts';
import { readTarGz } from './tar-read.ts';

/** A package whose signature, archive and manifest all checked out. Its files are held in memory. */
export interface VerifiedPackage {
  file: string;
  /** SHA-512 hex of the .tar.gz: the value the vendor publishes. */
  sha512: string;
  /** The trusted publisher whose key verified the signature, and that key's fingerprint. */
  signer: { id: string; fingerprint: string };
  manifest: UpgradeManifest;
  /** Project-relative path -> content, for every `write` entry. */
  contents: ReadonlyMap<string, Buffer>;
}

export interface OpenPackageOptions {
  /** The publisher keys this installation trusts (as its integrity check does). */
  keys: readonly PublisherKey[];
  /** The published checksum the operator supplied; a mismatch refuses the package. */
  expectSha512?: string;
}

/**
 * Reads and verifies an upgrade package, in this order: size, checksum (the .sha512 beside it and the
 * operator's value), the RSA-PSS signature over the archive bytes, and only then the archive's content.
 * The archive is read once into memory and every later step uses those same bytes, so the file cannot
 * be swapped between the check and the use.
 */
export async function openPackage(file: string, opts: OpenPackageOptions): Promise<VerifiedPackage> {
  const archive = await readBounded(file);
  const sha512 = createHash('sha512').update(archive).digest('hex');
  await checkChecksums(file, sha512, opts.expectSha512);
  const signer = await checkSignature(file, archive, opts.keys);
  const entries = await readTarGz(archive, MAX_UNPACKED_BYTES);
  const manifest = readManifest(entries);
  const contents = checkContents(manifest, entries);
  return { file, sha512, signer, manifest, contents };
}

async function readBounded(file: string): Promise<Buffer> {
  let fh;
  try {
    fh = await open(file, 'r');
  } catch (err) {
    throw new UpgradeRefused('archive', `cannot open ${file}: ${(err as Error).message}`, { cause: err });
  }
  try {
    const st = await fh.stat();
    if (!st.isFile()) throw new UpgradeRefused('archive', `${file} is not a regular file`);
    if (st.size > MAX_PACKAGE_BYTES)
      throw new UpgradeRefused('archive', `${file} is larger than ${MAX_PACKAGE_BYTES} bytes`);
    return await fh.readFile();
  } finally {
    await fh.close();
  }
}

async function checkChecksums(file: string, sha512: string, expected?: string): Promise<void> {
  if (expected !== undefined) {
    const want = parseChecksum(expected);
    if (want === null) throw new UpgradeRefused('checksum', 'the expected SHA-512 is not 128 hex digits');
    if (want !== sha512)
      throw new UpgradeRefused(
        'checksum',
        `the package's SHA-512 is not the published value: STOP, do not install it.\n  published ${want}\n  package   ${sha512}`,
      );
  }
  // The .sha512 beside the package travels with it, so it proves nothing against an attacker; it still
  // catches a truncated or corrupted download before anything else is tried.
  const sidecar = await readOptional(`${file}.sha512`);
  if (sidecar !== null && parseChecksum(sidecar.toString('utf8')) !== sha512)
    throw new UpgradeRefused('checksum', `${basename(file)} does not match ${basename(file)}.sha512`);
}

async function checkSignature(
  file: string,
  archive: Buffer,
  keys: readonly PublisherKey[],
): Promise<{ id: string; fingerprint: string }> {
  const sig = await readOptional(`${file}.sig`);
  if (sig === null) throw new UpgradeRefused('signature', `no signature: ${basename(file)}.sig is missing`);
  if (keys.length === 0)
    throw new UpgradeRefused(
      'signature',
      'this installation trusts no publisher key (manifests/publishers/ is empty, or no valid signed ' +
        'manifest vouches for its keys), so no package can be verified',
    );
  const text = sig.toString('utf8');
  const signer = keys.find((k) => verifyDetached(k.key, archive, text));
  if (!signer)
    throw new UpgradeRefused(
      'signature',
      `the signature does not verify with any trusted publisher key (${keys.map((k) => k.id).join(', ')}): ` +
        'the package was altered or not signed by a trusted publisher',
    );
  return { id: signer.id, fingerprint: signer.fingerprint };
}

function readManifest(entries: Map<string, Buffer>): UpgradeManifest {
  const bytes = entries.get(MANIFEST_ENTRY);
  if (!bytes) throw new UpgradeRefused('manifest', `the archive holds no ${MANIFEST_ENTRY}`);
  if (bytes.length > MAX_MANIFEST_BYTES)
    throw new UpgradeRefused('manifest', `${MANIFEST_ENTRY} is larger than ${MAX_MANIFEST_BYTES} bytes`);
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch (err) {
    throw new UpgradeRefused('manifest', `${MANIFEST_ENTRY} is not JSON: ${(err as Error).message}`);
  }
  const parsed = upgradeManifestSchema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new UpgradeRefused(
      'manifest',
      `${MANIFEST_ENTRY} is malformed: ${issue?.path.join('.') || '(root)'}: ${issue?.message ?? 'invalid'}`,
    );
  }
  return parsed.data;
}

/** Every listed file present with its size and hash, nothing unlisted, and package.json naming the version. */
function checkContents(manifest: UpgradeManifest, entries: Map<string, Buffer>): Map<string, Buffer> {
  const contents = new Map<string, Buffer>();
  const writes = manifest.files.flatMap((f) => (f.action === 'write' ? [f] : []));
  for (const f of writes) {
    const bytes = entries.get(FILES_PREFIX + f.path);
    if (!bytes) throw new UpgradeRefused('manifest', `${f.path} is listed but not in the archive`);
    const hash = createHash('sha512').update(bytes).digest('hex');
    if (bytes.length !== f.size || hash !== f.sha512)
      throw new UpgradeRefused(
        'manifest',
        `${f.path} does not match its manifest entry\n  expected ${f.sha512}\n  actual   ${hash}`,
      );
    contents.set(f.path, bytes);
  }
  for (const path of entries.keys())
    if (
      path !== MANIFEST_ENTRY &&
      !(path.startsWith(FILES_PREFIX) && contents.has(path.slice(FILES_PREFIX.length)))
    )
      throw new UpgradeRefused('manifest', `${path} is in the archive but not in the manifest`);
  for (const path of contents.keys()) {
    const parts = path.split('/');
    for (let i = 1; i < parts.length; i++)
      if (contents.has(parts.slice(0, i).join('/')))
        throw new UpgradeRefused(
          'manifest',
          `${path} lies below ${parts.slice(0, i).join('/')}, also a file`,
        );
  }
  checkPackageJson(manifest, contents.get('package.json'));
  return contents;
}

function checkPackageJson(manifest: UpgradeManifest, bytes: Buffer | undefined): void {
  let pkg: { name?: unknown; version?: unknown } = {};
  try {
    pkg = JSON.parse(bytes?.toString('utf8') ?? '') as typeof pkg;
  } catch {
    // reported below
  }
  if (pkg.name !== manifest.product || pkg.version !== manifest.version)
    throw new UpgradeRefused(
      'manifest',
      `the package's package.json (${String(pkg.name)} ${String(pkg.version)}) is not the product and ` +
        `version its manifest names (${manifest.product} ${manifest.version})`,
    );
}

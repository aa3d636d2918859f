// Small release trees and installations for the upgrade tests, signed with the cached test vendor key
// (never a key of the real project).
import { createHash } from 'node:crypto';
import { chmodSync, cpSync, mkdirSync, readFileSync, readdirSync, lstatSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { signManifest } from '../../../kernel/vendor/manifest.ts';
import { publicPemOf } from '../../../kernel/vendor/keys.ts';
import { testVendor } from '../../helpers/license.ts';

export const vendor = testVendor();

const ENV_EXAMPLE_1 = `# uc-mcp-server settings.

# --- Project (rewritten by upgrades) ---
PROJECT_NAME=uc-mcp-server
# Empty: the version in package.json.
PROJECT_VERSION=
PROJECT_CREATOR=uc-mcp-server maintainers

# --- Logging ---
# trace, debug, info, warn, error or fatal.
LOGGING_LEVEL=info
# Port to listen on.
SERVER_PORT=8443
`;

const ENV_EXAMPLE_2 = `${ENV_EXAMPLE_1.replace('uc-mcp-server maintainers', 'ACME UC team')}
# --- Reports ---
# Largest report, in bytes.
# (a second line of description)
REPORT_MAX_BYTES=10485760
`;

/** Release 1.0.0 of a miniature product. */
export function release1(): Record<string, string> {
  return {
    'package.json': pkg('1.0.0'),
    'package-lock.json': '{ "lockfileVersion": 3 }\n',
    'tsconfig.json': '{}\n',
    'kernel/main.ts': 'export const main = 1;\n',
    'kernel/lib/util.ts': 'export const util = 2;\n',
    'kernel/old/legacy.ts': 'export const legacy = true;\n',
    'plugins/cucm/index.ts': 'export default { id: "cucm" };\n',
    'profiles/_default/admin.json': '{ "name": "admin" }\n',
    'scripts/tool.ts': 'console.log("tool");\n',
    'manifests/README.md': '# manifests\n',
    'manifests/publishers/test-vendor.pem': publicPemOf(vendor.privateKey),
    'docs/operations.md': '# Operations\n',
    Dockerfile: 'FROM node:22\n',
    '.env.example': ENV_EXAMPLE_1,
    'README.md': '# product\n',
    'upgrade/run_upgrade.ts': '// runner 1\n',
    'upgrade/README.md': '# Upgrading\n',
  };
}

/** Release 1.1.0: one file changed, one created, a folder dropped, a new setting, a new creator. */
export function release2(version = '1.1.0'): Record<string, string> {
  const files = release1();
  delete files['kernel/old/legacy.ts'];
  return {
    ...files,
    'package.json': pkg(version),
    'kernel/main.ts': 'export const main = 2;\n',
    'kernel/new/feature.ts': 'export const feature = "new";\n',
    '.env.example': ENV_EXAMPLE_2,
    'upgrade/run_upgrade.ts': '// runner 2\n',
  };
}

function pkg(version: string): string {
  return `${JSON.stringify({ name: 'uc-mcp-server', version }, null, 2)}\n`;
}

export function writeTree(root: string, files: Record<string, string>): string {
  for (const [rel, content] of Object.entries(files)) {
    mkdirSync(dirname(join(root, rel)), { recursive: true });
    writeFileSync(join(root, rel), content);
  }
  chmodSync(join(root, 'scripts/tool.ts'), 0o755);
  return root;
}

/**
 * An installation of release 1.0.0 as an operator has it: the signed release, an .env they edited
 * (LOGGING_LEVEL changed, a comment of their own), a server key pair for backups, some state.
 */
export async function installRelease(root: string, files = release1()): Promise<string> {
  writeTree(root, files);
  await signManifest({ root, privateKey: vendor.privateKey, publisher: vendor.publisher });
  writeFileSync(join(root, '.env'), OPERATOR_ENV, { mode: 0o600 });
  mkdirSync(join(root, 'clients', 'noc'), { recursive: true });
  writeFileSync(join(root, 'clients', 'noc', 'client.json'), '{ "name": "noc" }\n');
  return root;
}

export const OPERATOR_ENV = `# Our settings (edited by the NOC).
PROJECT_NAME=uc-mcp-server
PROJECT_VERSION=1.0.0
PROJECT_CREATOR=uc-mcp-server maintainers

# more logging while we settle in
LOGGING_LEVEL=debug
SERVER_PORT=8443
AUTH_CLIENTS=noc:operator:cucm
`;

export function copyTree(from: string, to: string): string {
  cpSync(from, to, { recursive: true });
  return to;
}

/** Path -> SHA-512 (or `dir`) of everything below `root`: compare two of them to prove nothing changed. */
export function snapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (rel: string): void => {
    for (const name of readdirSync(join(root, rel)).sort()) {
      const child = rel ? `${rel}/${name}` : name;
      const st = lstatSync(join(root, child));
      if (st.isDirectory()) {
        out[child] = 'dir';
        walk(child);
      } else
        out[child] = `${st.mode & 0o777}:${createHash('sha512')
          .update(readFileSync(join(root, child)))
          .digest('hex')}`;
    }
  };
  walk('');
  return out;
}

export interface RawEntry {
  name: string;
  /** '0' file, '1' hard link, '2' symbolic link, '5' folder. */
  type: '0' | '1' | '2' | '5';
  data?: Buffer | string;
  linkname?: string;
}

/**
 * A .tar.gz written byte by byte (ustar headers), so tests can build what no well-behaved tool writes:
 * absolute names, `..`, links.
 */
export function rawTarGz(entries: RawEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const e of entries) {
    const data = Buffer.from(e.data ?? '');
    const h = Buffer.alloc(512);
    h.write(e.name, 0, 100, 'utf8');
    h.write('0000644\0', 100, 'ascii');
    h.write('0000000\0', 108, 'ascii');
    h.write('0000000\0', 116, 'ascii');
    h.write(`${data.length.toString(8).padStart(11, '0')}\0`, 124, 'ascii');
    h.write('00000000000\0', 136, 'ascii');
    h.write('        ', 148, 'ascii');
    h.write(e.type, 156, 'ascii');
    if (e.linkname) h.write(e.linkname, 157, 100, 'utf8');
    h.write('ustar\0', 257, 'ascii');
    h.write('00', 263, 'ascii');
    let sum = 0;
    for (const b of h) sum += b;
    h.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
    blocks.push(h, data, Buffer.alloc((512 - (data.length % 512)) % 512));
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks));
}

// Throw-away project trees for the integrity, license and script tests: a small synthetic copy of the
// layout, signed with the cached 'vendor' test key (never a key of the real project).
import { spawn } from 'node:child_process';
import { createPrivateKey, type KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AuditLog } from '../../../kernel/audit/audit-log.ts';
import { configSchema } from '../../../kernel/config/schema.ts';
import {
  keyFingerprint,
  parsePublisherKey,
  type PublisherKey,
} from '../../../kernel/integrity/publishers.ts';
import { createAppLog, type AppLogger } from '../../../kernel/logging/app-log.ts';
import { PROJECT_ROOT } from '../../../kernel/paths.ts';
import { signManifest } from '../../../kernel/vendor/manifest.ts';
import { cachedRsaKeyPair } from '../../helpers/keys.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

export interface TestKey {
  id: string;
  privateKey: KeyObject;
  privatePem: string;
  publicPem: string;
}

// Read once per process: on a cold cache two test processes may both generate a slot, and the file on
// disk can change under a process that already signed with the first key.
const loaded = new Map<string, { privatePem: string; publicPem: string }>();

/** A cached RSA-4096 pair as a vendor key; slots 'vendor' and 'attacker' are the usual ones. */
export function testKey(slot: 'vendor' | 'attacker' | 'acme', id: string = slot): TestKey {
  let pair = loaded.get(slot);
  if (!pair) {
    pair = cachedRsaKeyPair(slot);
    loaded.set(slot, pair);
  }
  return { id, privateKey: createPrivateKey(pair.privatePem), ...pair };
}

/** The key as the license gate receives it. */
export function publisherKey(k: TestKey, vouched = true): PublisherKey {
  const key = parsePublisherKey(k.publicPem);
  return {
    id: k.id,
    key,
    path: `manifests/publishers/${k.id}.pem`,
    fingerprint: keyFingerprint(key),
    vouched,
  };
}

const FILES: Record<string, string> = {
  'package.json': '{ "name": "fixture", "version": "1.0.0" }\n',
  'package-lock.json': '{ "lockfileVersion": 3 }\n',
  'tsconfig.json': '{}\n',
  'kernel/main.ts': 'export const main = 1;\n',
  'kernel/lib/util.ts': 'export const util = 2;\n',
  'plugins/README.md': '# plugins\n',
  'plugins/cucm/index.ts': 'export default { id: "cucm" };\n',
  'plugins/cucm/tools/get-version.ts': 'export const tool = "cucm_get_version";\n',
  'plugins/infra/index.ts': 'export default { id: "infra" };\n',
  'profiles/_default/admin.json': '{ "name": "admin" }\n',
  'scripts/tool.ts': 'console.log("tool");\n',
  'manifests/README.md': '# manifests\n',
};

export interface Tree {
  root: string;
  write(rel: string, content: string | Buffer): void;
  read(rel: string): Buffer;
  remove(rel: string): void;
  cleanup(): void;
}

/** A synthetic unsigned tree. */
export function makeTree(): Tree {
  const { dir, cleanup } = tempStateDir('ucmcp-tree-');
  const tree: Tree = {
    root: dir,
    write(rel, content) {
      mkdirSync(dirname(join(dir, rel)), { recursive: true });
      writeFileSync(join(dir, rel), content);
    },
    read: (rel) => readFileSync(join(dir, rel)),
    remove: (rel) => rmSync(join(dir, rel), { recursive: true, force: true }),
    cleanup,
  };
  for (const [rel, content] of Object.entries(FILES)) tree.write(rel, content);
  return tree;
}

/** A synthetic tree with the 'vendor' key installed and the manifest signed by it. */
export async function signedTree(key: TestKey = testKey('vendor')): Promise<Tree> {
  const tree = makeTree();
  await signManifest({ root: tree.root, privateKey: key.privateKey, publisher: key.id, installPublic: true });
  return tree;
}

/** Flips the lowest bit of one byte: the smallest possible tampering. */
export function flipByte(tree: Tree, rel: string, offset = 0): void {
  const buf = tree.read(rel);
  buf[offset] = (buf[offset] as number) ^ 1;
  tree.write(rel, buf);
}

export interface TestLogs {
  audit: AuditLog;
  log: AppLogger;
  auditRecords(): Record<string, unknown>[];
  appRecords(): Record<string, unknown>[];
  close(): Promise<void>;
}

/** A real audit.log and app.log (bunyan, as the kernel builds them) in `dir`. */
export function testLogs(dir: string): TestLogs {
  const config = configSchema.parse({ LOGGING_CONSOLE_ENABLED: '0', LOGGING_LEVEL: 'debug' });
  const app = createAppLog(join(dir, 'app.log'), config);
  const audit = new AuditLog({ path: join(dir, 'audit.log'), maxBytes: 50_000_000, maxFiles: 2 });
  const lines = (file: string): Record<string, unknown>[] => {
    try {
      return readFileSync(join(dir, file), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
    } catch {
      return [];
    }
  };
  return {
    audit,
    log: app.logger,
    auditRecords: () => lines('audit.log'),
    appRecords: () => lines('app.log'),
    async close() {
      await audit.close();
      await app.close();
    },
  };
}

export interface ScriptResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

/**
 * Runs one of the project's scripts as a child process, as an operator would, with only the given
 * environment (so nothing like UPDATE_MANIFEST_KEY leaks in from the developer's shell).
 */
export function runScript(
  script: string,
  args: string[],
  env: Record<string, string> = {},
): Promise<ScriptResult> {
  const child = spawn(process.execPath, ['--import', 'tsx', join(PROJECT_ROOT, 'scripts', script), ...args], {
    cwd: PROJECT_ROOT,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve) => child.on('exit', (code) => resolve({ code, stdout, stderr })));
}

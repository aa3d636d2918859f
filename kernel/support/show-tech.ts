import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import type { HashProgress } from '../integrity/hash.ts';
import { INTEGRITY_MODES, type IntegrityMode } from '../integrity/index.ts';
import { scrubText } from '../logging/redact.ts';
import { PROJECT_ROOT } from '../paths.ts';
import { instanceLogPath } from '../store/backend/instance-id.ts';
import { bundleName } from './bundle-name.ts';
import { redactEnvFile } from './env-redaction.ts';
import { isSecretSetting } from './secret-shapes.ts';
import { forbiddenMaterial, scanFile } from './leak-scan.ts';
import { copyRedactedLog } from './log-redaction.ts';
import { clientsSection } from './sections/clients.ts';
import { dependenciesSection } from './sections/dependencies.ts';
import { integritySection } from './sections/integrity.ts';
import { licenseSection } from './sections/license.ts';
import { versionsSection } from './sections/versions.ts';
import { findRunningServer } from '../backup/server-process.ts';
import type { OperatorSettings } from './settings.ts';
import { zipFolder } from './zip.ts';

/** The files of a bundle, in the order they are collected. Nothing outside this list is ever added. */
export const BUNDLE_FILES = {
  summary: 'summary.json',
  versions: 'versions.json',
  env: 'env.redacted.txt',
  integrity: 'integrity.json',
  license: 'license.json',
  clients: 'clients.json',
  dependencies: 'dependencies.json',
  appLog: 'app.log',
  auditLog: 'audit.log',
} as const;

/** What a bundle never holds (functional spec, Versioning 8); written into summary.json for the reader. */
const NEVER_INCLUDED = [
  'RSA private keys (current or archived) and TLS private keys',
  'JWTs: startup .token files, OAuth access and refresh tokens',
  'OAuth client secrets and their hashes',
  'encrypted backups',
  'managed-node credentials (the vault) and the vault master secret',
  'secrets/license.jwt',
];

export interface SupportBundleOptions {
  settings: OperatorSettings;
  /** Where the bundle is written (created if missing). */
  outputDir: string;
  logs: boolean;
  zip: boolean;
  /** The shipped tree to verify and read versions from (tests pass a fixture tree). */
  projectRoot?: string;
  now?: Date;
  host?: string;
  /** Called as each part is collected (progress output). */
  onStep?: (label: string) => void;
  onHashProgress?: (p: HashProgress) => void;
}

export interface SupportBundle {
  /** The .zip file, or the folder with --no-zip. */
  path: string;
  files: string[];
}

/** Thrown when the final search found secret material: nothing was written. */
export class BundleLeakError extends Error {
  constructor(readonly findings: { file: string; what: string[] }[]) {
    super(
      `the bundle would contain secret material (${findings
        .map((f) => `${f.file}: ${f.what.join(', ')}`)
        .join('; ')}); nothing was written`,
    );
  }
}

/** The number of onStep calls a build makes (the progress total). */
export function bundleSteps(logs: boolean): number {
  return 8 + (logs ? 2 : 0);
}

/**
 * Builds the support bundle: each part is written into a private staging folder beside the target,
 * every staged byte is searched for this installation's secrets, and only then is the staging folder
 * zipped (or renamed) to its final name. A failure at any point leaves no partial bundle behind.
 */
export async function buildSupportBundle(opts: SupportBundleOptions): Promise<SupportBundle> {
  const { settings } = opts;
  const root = opts.projectRoot ?? PROJECT_ROOT;
  const now = opts.now ?? new Date();
  const host = opts.host ?? hostname();
  const step = opts.onStep ?? (() => undefined);
  const name = bundleName(now, host);
  mkdirSync(opts.outputDir, { recursive: true, mode: 0o700 });
  const target = join(opts.outputDir, opts.zip ? `${name}.zip` : name);
  if (existsSync(target)) throw new Error(`${target} already exists`);

  const mode = integrityMode(settings);
  const staging = mkdtempSync(join(opts.outputDir, `.${name}.`));
  try {
    const files: string[] = [];
    const put = (file: string, content: string): void => {
      writeFileSync(join(staging, file), content, { mode: 0o600, flag: 'wx' });
      files.push(file);
    };
    const json = (value: unknown): string => `${JSON.stringify(value, null, 2)}\n`;
    const server = runningServer(settings.paths.root);

    step('versions');
    put(BUNDLE_FILES.versions, json(versionsSection(settings, server)));
    step('.env (redacted)');
    put(BUNDLE_FILES.env, envText(settings));
    step('integrity check');
    put(BUNDLE_FILES.integrity, json(await integritySection(root, mode, opts.onHashProgress)));
    step('license state');
    put(BUNDLE_FILES.license, json(await licenseSection(settings.paths, root, mode)));
    step('client names');
    put(BUNDLE_FILES.clients, json(clientsSection(settings)));
    step('dependency versions');
    put(BUNDLE_FILES.dependencies, json(dependenciesSection(root)));
    const logLines: Record<string, number | null> = {};
    if (opts.logs) {
      for (const [file, source] of [
        [BUNDLE_FILES.appLog, logOf(settings, settings.paths.appLog)],
        [BUNDLE_FILES.auditLog, logOf(settings, settings.paths.auditLog)],
      ] as const) {
        step(file);
        logLines[file] = await copyRedactedLog(source, join(staging, file));
        if (logLines[file] !== null) files.push(file);
      }
    }
    put(
      BUNDLE_FILES.summary,
      json({
        bundle: name,
        generated_at: now.toISOString(),
        hostname: host,
        state_dir: settings.paths.root,
        env_file: settings.envFile,
        configuration: settings.configError
          ? { valid: false, error: shownConfigError(settings.configError) }
          : { valid: true },
        server_running: server,
        logs: opts.logs ? logLines : 'excluded (--no-logs)',
        files: [...files, BUNDLE_FILES.summary],
        never_included: NEVER_INCLUDED,
      }),
    );

    step('searching the bundle for secrets');
    const forbidden = forbiddenMaterial(settings);
    const findings = files
      .map((file) => ({ file, what: scanFile(join(staging, file), forbidden) }))
      .filter((f) => f.what.length > 0);
    if (findings.length > 0) throw new BundleLeakError(findings);

    step(opts.zip ? 'zipping' : 'writing the folder');
    if (opts.zip) {
      const partial = join(opts.outputDir, `.${name}.zip.partial`);
      rmSync(partial, { force: true });
      try {
        await zipFolder(staging, partial, name);
        renameSync(partial, target);
      } finally {
        rmSync(partial, { force: true });
      }
      rmSync(staging, { recursive: true, force: true });
    } else {
      renameSync(staging, target);
    }
    return { path: target, files };
  } catch (err) {
    rmSync(staging, { recursive: true, force: true });
    throw err;
  }
}

/**
 * A configuration error as the bundle shows it: the loader quotes the offending value (`KEY: why (got
 * "value")`), which the bundle hides by the same rule as the .env section.
 */
function shownConfigError(message: string): string {
  const m = /^([A-Za-z_][A-Za-z0-9_.-]*): [\s\S]*? \(got ("(?:[^"\\]|\\.)*")\)$/.exec(message);
  if (m) {
    let value = '';
    try {
      value = JSON.parse(m[2] as string) as string;
    } catch {
      // not the loader's quoting: judged by the text rules below
    }
    if (isSecretSetting(m[1] as string, value))
      return scrubText(message.slice(0, message.length - (m[2] as string).length - 7)) + ' (value hidden)';
  }
  return scrubText(message);
}

function envText(settings: OperatorSettings): string {
  if (!settings.envFile)
    return '# no .env file: the server runs on the embedded defaults and the environment.\n';
  return redactEnvFile(readFileSync(settings.envFile, 'utf8'), settings.envFile);
}

function integrityMode(settings: OperatorSettings): IntegrityMode {
  const raw = settings.config?.INTEGRITY_MODE ?? settings.dotenv.INTEGRITY_MODE;
  return INTEGRITY_MODES.includes(raw as IntegrityMode) ? (raw as IntegrityMode) : 'enforce';
}

/** Whether a server runs on the state directory; a diagnostic tool reports "unknown" rather than failing. */
function runningServer(stateDir: string): { pid: number } | false | 'unknown' {
  try {
    const p = findRunningServer(stateDir);
    return p ? { pid: p.pid } : false;
  } catch {
    return 'unknown';
  }
}

/**
 * This instance's file of a log: with a shared store each instance writes its own (`<log>-<instance>`),
 * and the bundle is of the instance whose .env (INSTANCE_ID, else the host name) it is made with.
 */
function logOf(settings: OperatorSettings, path: string): string {
  return settings.config ? instanceLogPath(path, settings.config) : path;
}

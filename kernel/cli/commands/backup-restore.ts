// backup_restore: restore the state from an encrypted backup (functional spec, Operator scripts and
// Versioning 6). Without --replace it only extracts into restore_<id>/ beside the live installation;
// with --replace it stops the running server (after an interactive yes) and puts the backup's state in
// place of the live one. Every check (sidecar, key, authentication tag, entry safety) passes before
// anything becomes visible, and a failure leaves the installation exactly as it was.

import { createPrivateKey, type KeyObject } from 'node:crypto';
import { readFileSync, statSync } from 'node:fs';
import { relative, resolve } from 'node:path';
import { BackupError } from '../../backup/errors.ts';
import { fetchFromSftp, type RemoteFetch } from '../../backup/fetch-remote.ts';
import {
  applyReplace,
  checkReplaceable,
  finishSafeRestore,
  prepareRestore,
  type PreparedRestore,
} from '../../backup/restore.ts';
import { removeRestoreMarker, writeRestoreMarker } from '../../backup/restore-marker.ts';
import { findRunningServer, PID_FILE, stopServer } from '../../backup/server-process.ts';
import { parseSftpUrl } from '../../backup/sftp.ts';
import { decryptSftpPassword } from '../../backup/sftp-password.ts';
import { operatorSettings, type OperatorSettings } from '../../support/settings.ts';
import { EXIT, type CliCommand, type CliIo } from '../command.ts';
import { confirm } from '../confirm.ts';
import { rejectPositionals } from '../dispatch.ts';
import { askSecret } from '../io.ts';
import { createProgress } from '../progress.ts';
import { recordOperatorEvent } from '../operator-audit.ts';
import { STATE_DIR_OPTION } from '../common-options.ts';

const NAME = 'backup_restore';
/** Time the server gets to stop after SIGTERM, beyond its own SHUTDOWN_GRACE_MS. */
const STOP_MARGIN_MS = 15_000;

const HELP = `Restores the state (.env, secrets/, clients/, profiles/, reports/, the audit log) from an
encrypted backup made by the server's backup watchdog.

Before anything is written, the archive is checked against its SHA-512 sidecar (<file>.sha512), its
session key is unwrapped with --key (the server private key, or the archived key
secrets/rsa_private.pem.archived.<YYYYMMDD> for backups made before a key rotation), its AES-GCM tag is
verified over the whole file, and every entry is checked (no absolute paths, no "..", no links, only
state paths). Any failure: a clear message, exit 1, and nothing changed.

Without --replace (safe extract): the state is extracted into restore_<backup_id>/ in the state
directory; the live installation is not touched.

With --replace (in place): the running server is found (STATE_DIR/${PID_FILE}, else a process scan),
you are asked to confirm, the server gets SIGTERM and the command waits until it has exited; then each
item of the backup replaces the live one, which is moved to replaced_<time>/ (delete it once the
restored server works). The live audit log is kept (append-only): the backup's copy goes to
logs/restored_<backup_id>/. Start the server (or its container) again afterwards.

--file may be sftp://[user@]host[:port]/path/backup_....tar.gz.enc (the sidecar is fetched beside it).
The password is BACKUP_SFTP_PASSWORD_ENC decrypted with --key, else asked for on the terminal; the host
key must match --host-key or BACKUP_SFTP_HOST_KEY.

Examples:
  backup_restore --file backups/backup_202601_uc1_20260105_020000.tar.gz.enc --key /secure/rsa_private.pem
  backup_restore --file backups/backup_202601_uc1_20260105_020000.tar.gz.enc --key /secure/rsa_private.pem --replace

Exit codes: 0 restored; 1 failed (nothing changed); 2 usage error; 3 declined, or no terminal to
confirm on and no --yes.`;

export const command: CliCommand = {
  name: NAME,
  summary: 'restore from an encrypted local or SFTP backup archive (--file, --key, --replace)',
  help: HELP,
  options: [
    {
      name: 'file',
      type: 'string',
      description: 'the backup: a local path or sftp://[user@]host[:port]/path',
    },
    { name: 'key', type: 'string', description: 'the private key PEM file that opens the backup' },
    { name: 'replace', type: 'boolean', description: 'stop the server and restore over the live state' },
    { name: 'yes', short: 'y', type: 'boolean', description: 'do not ask for confirmation (--replace)' },
    { name: 'sidecar', type: 'string', description: 'the SHA-512 sidecar (default: <file>.sha512)' },
    {
      name: 'host-key',
      type: 'string',
      description: 'SFTP host key fingerprint SHA256:... (default: BACKUP_SFTP_HOST_KEY)',
    },
    STATE_DIR_OPTION,
  ],
  async run({ values, positionals }, io) {
    const stray = rejectPositionals(NAME, positionals, io);
    if (stray !== undefined) return stray;
    const fileArg = str(values.file);
    const keyArg = str(values.key);
    if (!fileArg || !keyArg) {
      io.err(`${NAME}: --file and --key are required\nRun '${NAME} --help' for usage.\n`);
      return EXIT.USAGE;
    }
    const settings = operatorSettings(io, str(values['state-dir']));
    const stateDir = settings.stateDir;
    const replace = values.replace === true;

    let remote: RemoteFetch | undefined;
    let prepared: PreparedRestore | undefined;
    try {
      const privateKey = readPrivateKey(resolve(io.cwd, keyArg));
      let file = resolve(io.cwd, fileArg);
      let sidecar = str(values.sidecar) ? resolve(io.cwd, str(values.sidecar) as string) : undefined;
      const url = parseSftpUrl(fileArg);
      if (url) {
        remote = await download(io, settings, url, privateKey, str(values['host-key']));
        file = remote.file;
        sidecar ??= remote.sidecar;
      }
      if (replace) {
        const running = findRunningServer(stateDir);
        if (running)
          io.out(
            `The server is running (pid ${running.pid}); it will be stopped once the backup is verified.\n`,
          );
      }

      prepared = await prepareRestore({
        file,
        ...(sidecar ? { sidecar } : {}),
        privateKey,
        stateDir,
        progress: (label, total) => createProgress(io, label, total),
        ...ownerFor(stateDir),
      });
      io.out(
        `Backup ${prepared.id}: made ${prepared.createdAt} on ${prepared.hostname} (server ${prepared.serverVersion}); ` +
          `${prepared.extracted.files} files verified.\n`,
      );

      if (!replace) {
        const dest = finishSafeRestore(prepared, stateDir);
        prepared = undefined;
        io.out(`Extracted into ${dest}\nThe live installation was not touched.\n`);
        return EXIT.OK;
      }
      return await replaceLive(io, settings, prepared, values.yes === true).finally(() => {
        prepared = undefined;
      });
    } catch (err) {
      prepared?.discard();
      if (err instanceof BackupError) {
        io.err(`${NAME}: ${err.message}\nNothing was changed.\n`);
        return EXIT.FAILED;
      }
      throw err;
    } finally {
      remote?.cleanup();
    }
  },
};

async function replaceLive(
  io: CliIo,
  settings: OperatorSettings,
  prepared: PreparedRestore,
  yes: boolean,
): Promise<number> {
  const stateDir = settings.stateDir;
  try {
    checkReplaceable(prepared, stateDir);
  } catch (err) {
    prepared.discard();
    throw err;
  }
  const running = findRunningServer(stateDir);
  const question =
    `Replace the live state in ${stateDir} with backup ${prepared.id}?` +
    (running ? ` The server (pid ${running.pid}) will be stopped first.` : ' (no running server was found)');
  if (!(await confirm(io, question, { yes }))) {
    prepared.discard();
    io.err(`${NAME}: declined; nothing was changed.\n`);
    return EXIT.DECLINED;
  }
  // Held until the end: a container entry seeing the server stop for this restore waits for it.
  writeRestoreMarker(stateDir);
  try {
    return await replaceStopped(prepared, stateDir, running, settings, io);
  } finally {
    removeRestoreMarker(stateDir);
  }
}

async function replaceStopped(
  prepared: PreparedRestore,
  stateDir: string,
  running: ReturnType<typeof findRunningServer>,
  settings: OperatorSettings,
  io: CliIo,
): Promise<number> {
  if (running) {
    io.out(`Stopping the server (pid ${running.pid}, SIGTERM)...\n`);
    const grace = settings.config?.SHUTDOWN_GRACE_MS ?? 10_000;
    try {
      await stopServer(running, grace + STOP_MARGIN_MS);
    } catch (err) {
      prepared.discard();
      throw err;
    }
    io.out('The server has stopped.\n');
  }
  const again = findRunningServer(stateDir);
  if (again) {
    prepared.discard();
    throw new BackupError(
      'SERVER_RUNNING',
      `a server started meanwhile (pid ${again.pid}); stop it and run the restore again`,
    );
  }

  // The swap is a handful of renames: a Ctrl-C in the middle would leave half of each state.
  const ignore = (): void => undefined;
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;
  for (const s of signals) process.on(s, ignore);
  let summary;
  try {
    summary = applyReplace(prepared, stateDir);
  } finally {
    for (const s of signals) process.off(s, ignore);
  }
  recordRestore(settings, prepared);
  const rel = (p: string): string => relative(stateDir, p) || '.';
  io.out(
    [
      `Restored backup ${prepared.id} over ${stateDir}:`,
      ...summary.restored.map((r) => `  ${r}`),
      ...(summary.replacedDir
        ? [`The replaced live files are in ${rel(summary.replacedDir)}/ (delete it once the server works).`]
        : []),
      ...(summary.auditCopiesDir
        ? [`The live audit log was kept; the backup's audit log is in ${rel(summary.auditCopiesDir)}/.`]
        : []),
      'Start the server (or its container) again.',
      '',
    ].join('\n'),
  );
  return EXIT.OK;
}

/** One SERVER record in the live audit log: a restore is the kind of event an auditor looks for. */
function recordRestore(settings: OperatorSettings, p: PreparedRestore): void {
  void recordOperatorEvent(settings, {
    event: 'SERVER',
    status: 'BACKUP_RESTORED',
    backup_id: p.id,
    mode: 'replace',
    created_at: p.createdAt,
  });
}

async function download(
  io: CliIo,
  settings: OperatorSettings,
  url: NonNullable<ReturnType<typeof parseSftpUrl>>,
  privateKey: KeyObject,
  hostKeyOption: string | undefined,
): Promise<RemoteFetch> {
  const setting = (
    key: 'BACKUP_SFTP_USER' | 'BACKUP_SFTP_HOST_KEY' | 'BACKUP_SFTP_PASSWORD_ENC' | 'BACKUP_SFTP_PORT',
  ): string => io.env[key]?.trim() || String(settings.config?.[key] ?? settings.dotenv[key] ?? '').trim();
  const user = url.user ?? setting('BACKUP_SFTP_USER');
  if (!user)
    throw new BackupError(
      'SFTP',
      'no SFTP user: put it in the URL (sftp://user@host/...) or set BACKUP_SFTP_USER',
    );
  const hostKey = hostKeyOption ?? setting('BACKUP_SFTP_HOST_KEY');
  if (!hostKey)
    throw new BackupError(
      'SFTP',
      'no SFTP host key to check: pass --host-key SHA256:... or set BACKUP_SFTP_HOST_KEY',
    );
  const port = url.port ?? (Number(setting('BACKUP_SFTP_PORT')) || 22);
  const enc = setting('BACKUP_SFTP_PASSWORD_ENC');
  let password: string | undefined;
  if (enc) {
    try {
      password = decryptSftpPassword(enc, privateKey);
    } catch (err) {
      if (!io.interactive) throw err;
      io.err(`${(err as Error).message}\n`);
    }
  }
  if (password === undefined) {
    if (!io.interactive)
      throw new BackupError(
        'SFTP',
        'no SFTP password: set BACKUP_SFTP_PASSWORD_ENC, or run on a terminal to be asked',
      );
    password = await askSecret(io, `SFTP password for ${user}@${url.host}: `);
    if (!password) throw new BackupError('SFTP', 'no SFTP password given');
  }
  io.out(`Downloading ${url.path} from ${url.host}...\n`);
  return fetchFromSftp(url, { intoDir: settings.stateDir, user, port, hostKey, password });
}

function readPrivateKey(path: string): KeyObject {
  let pem: Buffer;
  try {
    pem = readFileSync(path);
  } catch (err) {
    throw new BackupError(
      'BAD_KEY',
      `cannot read the key file ${path}: ${(err as NodeJS.ErrnoException).code ?? 'error'}`,
    );
  }
  try {
    const key = createPrivateKey(pem);
    if (key.asymmetricKeyType !== 'rsa') throw new Error('not RSA');
    return key;
  } catch {
    // The parser's message could quote the file: say only what is wrong.
    throw new BackupError('BAD_KEY', `${path} is not an unencrypted RSA private key in PEM form`);
  }
}

/** Root restoring for a server that runs as another user: the files get the state directory's owner. */
function ownerFor(stateDir: string): { owner?: { uid: number; gid: number } } {
  if (process.getuid?.() !== 0) return {};
  try {
    const st = statSync(stateDir);
    return st.uid === 0 ? {} : { owner: { uid: st.uid, gid: st.gid } };
  } catch {
    return {};
  }
}

function str(v: string | boolean | undefined): string | undefined {
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}

// rotate_rsa_keys: replaces the server RSA-4096 key pair, keeping the old one as an archive
// (functional spec, Versioning 5). The server must be stopped: it holds the key in memory and would
// keep signing with the old one. Earlier tokens stop working at the next start because the kernel
// trusts only the current key (kid = its thumbprint) and refresh tokens are bound to the kid.

import { createPublicKey, type KeyObject } from 'node:crypto';
import { relative } from 'node:path';
import { calculateJwkThumbprint, exportJWK } from 'jose';
import { EXIT, type CliCommand, type CliIo } from '../command.ts';
import { confirm } from '../confirm.ts';
import { rejectPositionals } from '../dispatch.ts';
import { createProgress } from '../progress.ts';
import {
  RotationRefused,
  archiveDate,
  archivePaths,
  currentPrivateKey,
  generateServerKeyPair,
  installRotatedPair,
} from '../../keys/rotate.ts';
import type { StatePaths } from '../../paths.ts';
import { operatorSettings, type OperatorSettings } from '../../support/settings.ts';
import { PID_FILE, findRunningServer } from '../../backup/server-process.ts';
import { STATE_DIR_OPTION } from '../common-options.ts';

const HELP = `Archives the server key pair as secrets/rsa_private.pem.archived.<YYYYMMDD> (and
rsa_public.pem.archived.<YYYYMMDD>; a second rotation the same day adds .2, .3...), then generates a new
RSA-4096 pair in its place. Run it with the server stopped, then start the server:

  - every JWT issued before is refused (startup .token files, OAuth access and refresh tokens);
  - new .token files are written to clients/<name>/secrets/ at that start;
  - OAuth client secrets are not affected;
  - backups made before the rotation restore with the archived key
    (backup_restore --file <backup> --key secrets/rsa_private.pem.archived.<YYYYMMDD>);
    backups made after it use the new key.

The server counts as running while STATE_DIR/${PID_FILE} names a live process (or a kernel/main.ts
process serving this state directory is found).

Exit codes: 0 rotated; 1 failed or the server is running (nothing changed); 2 usage error;
3 declined, or no terminal to confirm on and no --yes.`;

export const command: CliCommand = {
  name: 'rotate_rsa_keys',
  summary: 'interactive RSA key pair rotation',
  help: HELP,
  options: [
    { name: 'yes', short: 'y', type: 'boolean', description: 'do not ask for confirmation' },
    STATE_DIR_OPTION,
  ],
  async run({ values, positionals }, io) {
    const stray = rejectPositionals('rotate_rsa_keys', positionals, io);
    if (stray !== undefined) return stray;
    const stateDirOption = typeof values['state-dir'] === 'string' ? values['state-dir'] : undefined;
    const settings = operatorSettings(io, stateDirOption);
    const { paths } = settings;

    if (refuseWhileRunning(io, paths)) return EXIT.FAILED;
    let current: KeyObject;
    try {
      current = currentPrivateKey(paths);
    } catch (err) {
      if (!(err instanceof RotationRefused)) throw err;
      io.err(`rotate_rsa_keys: ${err.message}\n`);
      return EXIT.FAILED;
    }

    const planned = archivePaths(paths, archiveDate(new Date()));
    io.out(
      [
        `State directory: ${paths.root}`,
        `Current key id:  ${await kidOf(current)}`,
        `The current pair will be archived as:`,
        `  ${rel(paths, planned.archivedPrivate)}`,
        `  ${rel(paths, planned.archivedPublic)}`,
        'After the next start every token issued before is refused; clients need the new .token files',
        'or must authenticate again. Keep the archived private key: older backups need it to restore.',
        '',
      ].join('\n'),
    );
    if (!(await confirm(io, 'Rotate the server RSA key pair now?', { yes: values.yes === true }))) {
      io.err('rotate_rsa_keys: nothing changed.\n');
      return EXIT.DECLINED;
    }

    const next = await withProgress(io, generateServerKeyPair());
    // The operator may have taken a while to answer: look again before touching anything.
    if (refuseWhileRunning(io, paths)) return EXIT.FAILED;
    let result;
    try {
      // Dated now, not when the plan was shown: the operator may have answered after midnight.
      result = installRotatedPair(paths, currentPrivateKey(paths), next, archiveDate(new Date()));
    } catch (err) {
      if (!(err instanceof RotationRefused)) throw err;
      io.err(`rotate_rsa_keys: ${err.message}\n`);
      return EXIT.FAILED;
    }
    const newKid = await kidOf(createPublicKey(next.publicPem));
    io.out(
      [
        '',
        'Key pair rotated.',
        `  archived: ${rel(paths, result.archivedPrivate)}`,
        `            ${rel(paths, result.archivedPublic)}`,
        `  new key id: ${newKid}`,
        '',
        'Next steps:',
        '  1. Start the server (or its container). It writes new tokens to clients/<name>/secrets/.token.',
        '  2. Give each client its new .token, or let OAuth clients authenticate again (client secrets are unchanged).',
        `  3. Move ${rel(paths, result.archivedPrivate)} to safe offline storage: it is needed to restore`,
        '     backups made before today, and to nothing else.',
        ...sftpPasswordStep(settings),
        '',
      ].join('\n'),
    );
    return EXIT.OK;
  },
};

/**
 * True (after saying why) when a server runs on this state directory: it holds the key in memory and
 * would go on signing with the old one, and the operator would believe the rotation had taken effect.
 */
function refuseWhileRunning(io: CliIo, paths: StatePaths): boolean {
  let running;
  try {
    running = findRunningServer(paths.root);
  } catch (err) {
    io.err(`rotate_rsa_keys: ${(err as Error).message}; nothing changed.\n`);
    return true;
  }
  if (!running) return false;
  io.err(
    `rotate_rsa_keys: the server is running on ${paths.root} (pid ${running.pid}); stop it (or its container) first. Nothing changed.\n`,
  );
  return true;
}

/**
 * BACKUP_SFTP_PASSWORD_ENC is encrypted under the server public key and decrypted with the private one
 * at each upload: after a rotation the stored value no longer opens, so SFTP copies would fail.
 */
function sftpPasswordStep(settings: OperatorSettings): string[] {
  const enc = settings.config?.BACKUP_SFTP_PASSWORD_ENC || settings.dotenv.BACKUP_SFTP_PASSWORD_ENC;
  if (!enc) return [];
  return [
    '  4. BACKUP_SFTP_PASSWORD_ENC was encrypted with the old key: run encrypt_sftp_password now and put',
    '     its output in .env, or the SFTP copy of the next backups fails.',
  ];
}

/** RSA-4096 generation gives no progress of its own: show elapsed seconds so the operator sees it work. */
async function withProgress<T>(io: CliIo, work: Promise<T>): Promise<T> {
  const progress = createProgress(io, 'Generating RSA-4096 key pair (seconds)');
  const timer = setInterval(() => progress.tick(), 1000);
  try {
    return await work;
  } finally {
    clearInterval(timer);
    progress.done();
  }
}

async function kidOf(key: KeyObject): Promise<string> {
  const pub = key.type === 'private' ? createPublicKey(key) : key;
  return calculateJwkThumbprint(await exportJWK(pub), 'sha256');
}

function rel(paths: StatePaths, file: string): string {
  return relative(paths.root, file);
}

// encrypt_sftp_password: prints the BACKUP_SFTP_PASSWORD_ENC line for .env (functional spec, Operator
// scripts). The password is read without echo on a terminal, or from stdin when piped; it is encrypted
// under the server public key, so only the server (and a restore given the private key) can read it.

import { createPublicKey, type KeyObject } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { BackupError } from '../../backup/errors.ts';
import { encryptSftpPassword } from '../../backup/sftp-password.ts';
import { operatorSettings } from '../../support/settings.ts';
import { EXIT, type CliCommand, type CliIo } from '../command.ts';
import { rejectPositionals } from '../dispatch.ts';
import { askSecret, readStdin } from '../io.ts';
import { STATE_DIR_OPTION } from '../common-options.ts';

const NAME = 'encrypt_sftp_password';

export const command: CliCommand = {
  name: NAME,
  summary: 'encrypt the SFTP backup password for .env (BACKUP_SFTP_PASSWORD_ENC)',
  help: `Reads the SFTP password (on a terminal: asked twice, not echoed; otherwise: the first line of stdin),
encrypts it with RSA-OAEP (SHA-256) under the server public key (STATE_DIR/secrets/rsa_public.pem, or
--public-key) and prints one line to put in .env:

  BACKUP_SFTP_PASSWORD_ENC=<base64>

After a key rotation, run it again: the old value only opens with the archived key.

Examples:
  node --import tsx scripts/encrypt_sftp_password.ts
  printf '%s\\n' "$SFTP_PASSWORD" | node --import tsx scripts/encrypt_sftp_password.ts >> .env

Exit codes: 0 printed; 1 failed (no key, empty password, answers differ); 2 usage error.`,
  options: [
    {
      name: 'public-key',
      type: 'string',
      description: 'public key PEM (default: STATE_DIR/secrets/rsa_public.pem)',
    },
    STATE_DIR_OPTION,
  ],
  async run({ values, positionals }, io) {
    const stray = rejectPositionals(NAME, positionals, io);
    if (stray !== undefined) return stray;
    const keyOption = typeof values['public-key'] === 'string' ? values['public-key'] : undefined;
    const stateDirOption = typeof values['state-dir'] === 'string' ? values['state-dir'] : undefined;
    const keyPath = keyOption
      ? resolve(io.cwd, keyOption)
      : operatorSettings(io, stateDirOption).paths.rsaPublicKey;
    let publicKey: KeyObject;
    try {
      publicKey = createPublicKey(readFileSync(keyPath));
    } catch {
      io.err(
        `${NAME}: ${keyPath} is not a readable public key (start the server once to create the key pair)\n`,
      );
      return EXIT.FAILED;
    }
    const password = await readPassword(io);
    if (password === undefined) return EXIT.FAILED;
    try {
      io.out(`BACKUP_SFTP_PASSWORD_ENC=${encryptSftpPassword(password, publicKey)}\n`);
    } catch (err) {
      if (!(err instanceof BackupError)) throw err;
      io.err(`${NAME}: ${err.message}\n`);
      return EXIT.FAILED;
    }
    if (io.interactive) io.err('Put this line in .env (it replaces any earlier BACKUP_SFTP_PASSWORD_ENC).\n');
    return EXIT.OK;
  },
};

async function readPassword(io: CliIo): Promise<string | undefined> {
  if (!io.interactive) {
    const text = await readStdin(io);
    // The first line, without its line ending: `echo pw |` and `printf pw |` give the same result.
    const first = text.split(/\r?\n/)[0] ?? '';
    if (first === '') io.err(`${NAME}: no password on stdin\n`);
    return first === '' ? undefined : first;
  }
  const first = await askSecret(io, 'SFTP password: ');
  if (first === '') {
    io.err(`${NAME}: no password given\n`);
    return undefined;
  }
  const second = await askSecret(io, 'Again: ');
  if (second !== first) {
    io.err(`${NAME}: the two answers differ; nothing printed\n`);
    return undefined;
  }
  return first;
}

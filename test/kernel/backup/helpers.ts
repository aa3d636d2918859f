// Shared by the backup tests: a populated state directory, the test keys, and a hash of a tree to prove
// that a failed restore changed nothing.

import {
  createCipheriv,
  createHash,
  createPrivateKey,
  createPublicKey,
  randomBytes,
  type KeyObject,
} from 'node:crypto';
import { lstatSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { Header } from 'tar';
import {
  CIPHER,
  encodeHeader,
  encodeTrailer,
  IV_BYTES,
  KEY_BYTES,
  keyFingerprint,
  wrapKey,
} from '../../../kernel/backup/format.ts';
import { sidecarText } from '../../../kernel/backup/sidecar.ts';
import type { CliIo } from '../../../kernel/cli/command.ts';
import { cachedRsaKeyPair, seedServerKeys } from '../../helpers/keys.ts';

export function serverKeys(slot = 'default'): { privateKey: KeyObject; publicKey: KeyObject } {
  const pair = cachedRsaKeyPair(slot);
  return { privateKey: createPrivateKey(pair.privatePem), publicKey: createPublicKey(pair.publicPem) };
}

/** A state directory with something in every place a backup covers, and in places it must skip. */
export function populateState(dir: string): void {
  seedServerKeys(dir);
  const put = (rel: string, text: string, mode = 0o600): void => {
    mkdirSync(join(dir, rel, '..'), { recursive: true, mode: 0o700 });
    writeFileSync(join(dir, rel), text, { mode });
  };
  put('.env', 'AUTH_CLIENTS=alice:admin:cucm\nLOGGING_LEVEL=info\n');
  put('secrets/token_blacklist.json', '{"revoked":[]}\n');
  put('secrets/vault_master.key', 'k'.repeat(32));
  put('clients/alice/client.json', '{"redirect_uris":[]}\n');
  put('clients/alice/secrets/registration.json', '{"hash":"$2b$04$abc"}\n');
  put('clients/alice/vault/credentials.json', '{"records":{}}\n');
  put('profiles/admin.json', '{"name":"admin"}\n');
  put('profiles/_default/admin.json', '{"shipped":true}\n');
  put('reports/alice/audit @2026.md', '# Audit\n\nAll good.\n');
  put('logs/audit.log', '{"event":"SERVER"}\n');
  put('logs/audit.log.2026-01-01T00-00-00-000Z.0.gz', 'gz');
  put('logs/app.log', '{"msg":"app"}\n');
  put('schema-cache/axl.xsd', '<xsd/>');
  put('secrets/.x.json.123.abc.tmp', 'partial');
  put('restore_old/secrets/x', 'old restore');
}

/** Every path below `dir` with its type, mode and content hash: equal trees give equal maps. */
export function treeHash(dir: string, skip: (rel: string) => boolean = () => false): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (rel: string): void => {
    for (const name of readdirSync(join(dir, rel)).sort()) {
      const r = rel ? `${rel}/${name}` : name;
      if (skip(r)) continue;
      const abs = join(dir, r);
      const st = lstatSync(abs);
      const mode = (st.mode & 0o777).toString(8);
      if (st.isDirectory()) {
        out.set(r, `dir ${mode}`);
        walk(r);
      } else if (st.isSymbolicLink()) out.set(r, `link ${readlinkSync(abs)}`);
      else out.set(r, `file ${mode} ${createHash('sha256').update(readFileSync(abs)).digest('hex')}`);
    }
  };
  walk('');
  return out;
}

export interface RawEntry {
  path: string;
  type: 'File' | 'Directory' | 'SymbolicLink' | 'Link' | 'FIFO';
  body?: string;
  linkpath?: string;
}

/** A tar.gz written header by header, so it can hold what node-tar's packer would clean up. */
export function rawTarGz(entries: RawEntry[]): Buffer {
  const blocks: Buffer[] = [];
  for (const e of entries) {
    const body = Buffer.from(e.body ?? '');
    const h = new Header({
      path: e.path,
      mode: e.type === 'Directory' ? 0o700 : 0o600,
      size: e.type === 'File' ? body.length : 0,
      type: e.type,
      mtime: new Date('2026-01-01T00:00:00Z'),
      ...(e.linkpath ? { linkpath: e.linkpath } : {}),
    });
    const block = Buffer.alloc(512);
    h.encode(block, 0);
    blocks.push(block);
    if (e.type === 'File' && body.length > 0) {
      blocks.push(body, Buffer.alloc((512 - (body.length % 512)) % 512));
    }
  }
  blocks.push(Buffer.alloc(1024));
  return gzipSync(Buffer.concat(blocks));
}

/**
 * Encrypts any tar.gz in the backup format, as anyone holding the public key could: the format
 * authenticates content against corruption, not its author, so restores must check every entry.
 */
export function encryptRaw(
  tgz: Buffer,
  publicKey: KeyObject,
  file: string,
  id = '202601_evil_20260101_000000',
): void {
  const key = randomBytes(KEY_BYTES);
  const iv = randomBytes(IV_BYTES);
  const header = encodeHeader(
    {
      id,
      created_at: '2026-01-01T00:00:00.000Z',
      hostname: 'evil',
      server_version: '0.0.0',
      key_sha256: keyFingerprint(publicKey),
    },
    wrapKey(publicKey, key),
    iv,
  );
  const cipher = createCipheriv(CIPHER, key, iv);
  cipher.setAAD(header);
  const ct = Buffer.concat([cipher.update(tgz), cipher.final()]);
  const out = Buffer.concat([header, ct, encodeTrailer(cipher.getAuthTag(), ct.length)]);
  writeFileSync(file, out);
  writeFileSync(`${file}.sha512`, sidecarText(createHash('sha512').update(out).digest('hex'), file));
}

/** A CliIo that records what a command prints; `answers` feed its questions in order. */
export function fakeIo(
  env: NodeJS.ProcessEnv,
  opts: { interactive?: boolean; answers?: string[]; stdin?: string } = {},
): CliIo & { stdout: string; stderr: string; questions: string[]; readStdin(): Promise<string> } {
  const answers = [...(opts.answers ?? [])];
  const io = {
    stdout: '',
    stderr: '',
    questions: [] as string[],
    out: (t: string) => void (io.stdout += t),
    err: (t: string) => void (io.stderr += t),
    interactive: opts.interactive ?? false,
    ask: async (q: string) => {
      io.questions.push(q);
      return answers.shift() ?? '';
    },
    askSecret: async (q: string) => {
      io.questions.push(q);
      return answers.shift() ?? '';
    },
    readStdin: async () => opts.stdin ?? '',
    env,
    cwd: process.cwd(),
  };
  return io;
}

// A small SFTP server for the backup tests (ssh2's Server), serving one directory on 127.0.0.1 with
// password authentication. Just the requests fastPut, fastGet, rename and unlink use.

import {
  closeSync,
  fstatSync,
  openSync,
  readSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
  type Stats,
} from 'node:fs';
import { join, normalize } from 'node:path';
import ssh2 from 'ssh2';
import type { Connection } from 'ssh2';
import { fingerprintOf, generateParseableEd25519 } from '../../../lab/vos/host-key.ts';

const { OPEN_MODE, STATUS_CODE } = ssh2.utils.sftp;

export interface TestSftpServer {
  port: number;
  /** The pinned form: SHA256:... */
  fingerprint: string;
  /** Password authentication attempts seen (a refused host key must leave this at 0). */
  authAttempts: number;
  close(): Promise<void>;
}

export async function startSftpServer(o: {
  root: string;
  user: string;
  password: string;
}): Promise<TestSftpServer> {
  const hostKey = generateParseableEd25519();
  const connections = new Set<Connection>();
  const state = { authAttempts: 0 };
  const server = new ssh2.Server({ hostKeys: [hostKey] }, (client) => {
    connections.add(client);
    client.on('close', () => connections.delete(client));
    client.on('error', () => undefined);
    client.on('authentication', (ctx) => {
      if (ctx.method !== 'password') return ctx.reject(['password']);
      state.authAttempts++;
      if (ctx.username === o.user && ctx.password === o.password) ctx.accept();
      else ctx.reject(['password']);
    });
    client.on('ready', () => {
      client.on('session', (acceptSession) => {
        const session = acceptSession();
        session.on('sftp', (acceptSftp) => {
          const sftp = acceptSftp();
          const handles = new Map<number, number>();
          let next = 0;
          const resolvePath = (p: string): string => join(o.root, normalize(`/${p}`));
          const fdOf = (h: Buffer): number | undefined => handles.get(h.readUInt32BE(0));
          const attrsOf = (st: Stats) => ({
            mode: st.mode,
            uid: 0,
            gid: 0,
            size: st.size,
            atime: Math.floor(st.atimeMs / 1000),
            mtime: Math.floor(st.mtimeMs / 1000),
          });
          sftp
            .on('OPEN', (id, filename, flags) => {
              try {
                const mode =
                  flags & OPEN_MODE.WRITE
                    ? flags & OPEN_MODE.TRUNC || flags & OPEN_MODE.CREAT
                      ? 'w'
                      : 'r+'
                    : 'r';
                const fd = openSync(resolvePath(filename), mode);
                const h = Buffer.alloc(4);
                h.writeUInt32BE(++next, 0);
                handles.set(next, fd);
                sftp.handle(id, h);
              } catch {
                sftp.status(id, STATUS_CODE.NO_SUCH_FILE);
              }
            })
            .on('WRITE', (id, handle, offset, data) => {
              const fd = fdOf(handle);
              if (fd === undefined) return sftp.status(id, STATUS_CODE.FAILURE);
              writeSync(fd, data, 0, data.length, offset);
              sftp.status(id, STATUS_CODE.OK);
            })
            .on('READ', (id, handle, offset, len) => {
              const fd = fdOf(handle);
              if (fd === undefined) return sftp.status(id, STATUS_CODE.FAILURE);
              const buf = Buffer.alloc(len);
              const n = readSync(fd, buf, 0, len, offset);
              if (n === 0) sftp.status(id, STATUS_CODE.EOF);
              else sftp.data(id, buf.subarray(0, n));
            })
            .on('FSTAT', (id, handle) => {
              const fd = fdOf(handle);
              if (fd === undefined) return sftp.status(id, STATUS_CODE.FAILURE);
              sftp.attrs(id, attrsOf(fstatSync(fd)));
            })
            .on('STAT', (id, path) => {
              try {
                sftp.attrs(id, attrsOf(statSync(resolvePath(path))));
              } catch {
                sftp.status(id, STATUS_CODE.NO_SUCH_FILE);
              }
            })
            .on('CLOSE', (id, handle) => {
              const key = handle.readUInt32BE(0);
              const fd = handles.get(key);
              if (fd !== undefined) closeSync(fd);
              handles.delete(key);
              sftp.status(id, STATUS_CODE.OK);
            })
            .on('RENAME', (id, from, to) => {
              try {
                renameSync(resolvePath(from), resolvePath(to));
                sftp.status(id, STATUS_CODE.OK);
              } catch {
                sftp.status(id, STATUS_CODE.FAILURE);
              }
            })
            .on('REMOVE', (id, path) => {
              try {
                statSync(resolvePath(path));
                rmSync(resolvePath(path));
                sftp.status(id, STATUS_CODE.OK);
              } catch {
                sftp.status(id, STATUS_CODE.NO_SUCH_FILE);
              }
            });
        });
      });
    });
  });
  const port = await new Promise<number>((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const addr = server.address();
      resolve(typeof addr === 'object' && addr ? addr.port : 0);
    });
  });
  return {
    port,
    fingerprint: fingerprintOf(hostKey),
    get authAttempts() {
      return state.authAttempts;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const c of connections) c.end();
        server.close(() => resolve());
      }),
  };
}

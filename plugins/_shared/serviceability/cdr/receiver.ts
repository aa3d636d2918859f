// The receiving end of CDRonDemand get_file. A node does not return the file in its SOAP answer: it opens
// an (s)FTP session to the "billing server" it is given and writes the file there (developer.cisco.com
// CDRonDemand API: "The file is returned via a FTP or SSH-FTP session"). So for each transfer this server
// listens, for that transfer only, as a receive-only SFTP endpoint: one random user and password that are
// sent to the node inside the request and nowhere else (never logged, never shown to the model), one file
// of one expected name written into one directory, at most maxBytes, within timeoutMs; every other SFTP
// operation is refused, and the listener closes as soon as the file is in or the time is up.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { posix } from 'node:path';
import type { Connection, SFTPWrapper } from 'ssh2';
import { ServiceabilityError } from '../../../../kernel/sdk/index.ts';
import { loadSsh2 } from '../../vos/ssh-connect.ts';

/** The directory the node is told to write into (get_file's remote directory). */
export const RECEIVE_DIRECTORY = '/cdr';

const DIRECTORY = { mode: 0o40755, uid: 0, gid: 0, size: 0, atime: 0, mtime: 0 };

let hostKey: string | undefined;
/** One host key per process: nothing checks it (the password is one-time), but SSH needs one. */
function key(): string {
  hostKey ??= loadSsh2().utils.generateKeyPairSync('ed25519').private;
  return hostKey;
}

export interface ReceiveOptions {
  bindAddress: string;
  /** 0: any free port (tests). */
  port: number;
  /** The one file name accepted. */
  fileName: string;
  maxBytes: number;
  timeoutMs: number;
}

export interface Receiver {
  user: string;
  password: string;
  /** The port it listens on. */
  port: number;
  /** The file's bytes once the node closed it; rejects on timeout, on a file too large, or on close(). */
  file: Promise<Buffer>;
  close(): void;
}

const same = (a: string, b: string): boolean => {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
};

/**
 * Transfers one after another per listening address: a second one started while the first still holds
 * the port would fail to listen; it waits for its turn instead (each is bounded by its timeout).
 */
const turns = new Map<string, Promise<unknown>>();
export function oneAtATime<T>(address: string, fn: () => Promise<T>): Promise<T> {
  const previous = turns.get(address) ?? Promise.resolve();
  const mine = previous.then(fn, fn);
  const settled = mine.catch(() => undefined);
  turns.set(address, settled);
  void settled.then(() => {
    if (turns.get(address) === settled) turns.delete(address);
  });
  return mine;
}

export function startReceiver(o: ReceiveOptions): Promise<Receiver> {
  // ssh2 is loaded by the first transfer, not at startup (test/kernel/lifecycle/lazy-modules.test.ts).
  const ssh2 = loadSsh2();
  const { OPEN_MODE, STATUS_CODE } = ssh2.utils.sftp;
  const user = `cdr${randomBytes(6).toString('hex')}`;
  const password = randomBytes(24).toString('base64url');
  const target = posix.join(RECEIVE_DIRECTORY, o.fileName);
  const connections = new Set<Connection>();
  let settle: { resolve: (b: Buffer) => void; reject: (e: Error) => void } | undefined;
  const file = new Promise<Buffer>((resolve, reject) => {
    settle = { resolve, reject };
  });
  // A caller that stops waiting must not leave an unhandled rejection behind.
  file.catch(() => undefined);
  let finished = false;
  const server = new ssh2.Server({ hostKeys: [key()], ident: 'ucmcp-cdr-receiver' }, (client) => {
    if (finished) {
      client.end();
      return;
    }
    connections.add(client);
    client.on('error', () => undefined);
    client.on('close', () => connections.delete(client));
    client.on('authentication', (ctx) => {
      if (ctx.method === 'password' && same(ctx.username, user) && same(ctx.password, password)) ctx.accept();
      else ctx.reject(['password']);
    });
    client.on('ready', () => {
      client.on('session', (accept) => {
        const session = accept();
        // Only the SFTP subsystem is served: no shell, no exec, no forwarding (unhandled: refused).
        session.on('sftp', (acceptSftp) => serve(acceptSftp()));
      });
    });
  });
  const finish = (err?: Error, data?: Buffer): void => {
    if (finished) return;
    finished = true;
    clearTimeout(timer);
    for (const c of connections) c.end();
    server.close();
    if (err) settle?.reject(err);
    else settle?.resolve(data ?? Buffer.alloc(0));
  };
  const timer = setTimeout(
    () => finish(new ServiceabilityError(`the node did not deliver ${o.fileName} within ${o.timeoutMs} ms`)),
    o.timeoutMs,
  );
  timer.unref();

  function serve(sftp: SFTPWrapper): void {
    const handle = Buffer.from('cdr-file');
    let open = false;
    const chunks: Buffer[] = [];
    let size = 0;
    const norm = (p: string): string => posix.normalize(posix.join('/', p));
    const isOurs = (h: Buffer): boolean => open && h.equals(handle);
    sftp.on('REALPATH', (id, p) => {
      const n = norm(p === '.' || p === '' ? RECEIVE_DIRECTORY : p);
      sftp.name(id, [{ filename: n, longname: n, attrs: DIRECTORY }]);
    });
    const stat = (id: number, p: string): void => {
      const n = norm(p);
      if (n === '/' || n === RECEIVE_DIRECTORY) sftp.attrs(id, DIRECTORY);
      else sftp.status(id, STATUS_CODE.NO_SUCH_FILE);
    };
    sftp.on('STAT', stat);
    sftp.on('LSTAT', stat);
    sftp.on('OPEN', (id, filename, flags) => {
      if (open || norm(filename) !== target || !(flags & OPEN_MODE.WRITE) || flags & OPEN_MODE.READ) {
        sftp.status(id, STATUS_CODE.PERMISSION_DENIED);
        return;
      }
      open = true;
      sftp.handle(id, handle);
    });
    sftp.on('WRITE', (id, h, offset, data) => {
      if (!isOurs(h) || offset !== size) {
        sftp.status(id, STATUS_CODE.FAILURE);
        return;
      }
      if (size + data.length > o.maxBytes) {
        sftp.status(id, STATUS_CODE.FAILURE);
        finish(
          new ServiceabilityError(
            `the node sent more than ${o.maxBytes} bytes of ${o.fileName}; refused (CDR_FILE_MAX_BYTES)`,
          ),
        );
        return;
      }
      chunks.push(Buffer.from(data));
      size += data.length;
      sftp.status(id, STATUS_CODE.OK);
    });
    sftp.on('FSTAT', (id, h) => {
      if (!isOurs(h)) sftp.status(id, STATUS_CODE.FAILURE);
      else sftp.attrs(id, { mode: 0o100600, uid: 0, gid: 0, size, atime: 0, mtime: 0 });
    });
    // Permissions and times a client sets on the file it wrote: accepted and ignored.
    sftp.on('FSETSTAT', (id) => sftp.status(id, STATUS_CODE.OK));
    sftp.on('SETSTAT', (id) => sftp.status(id, STATUS_CODE.OK));
    sftp.on('CLOSE', (id, h) => {
      if (!isOurs(h)) {
        sftp.status(id, STATUS_CODE.FAILURE);
        return;
      }
      sftp.status(id, STATUS_CODE.OK);
      finish(undefined, Buffer.concat(chunks));
    });
    for (const op of [
      'READ',
      'OPENDIR',
      'READDIR',
      'REMOVE',
      'RMDIR',
      'MKDIR',
      'RENAME',
      'READLINK',
      'SYMLINK',
    ])
      sftp.on(op as 'READ', (id: number) => sftp.status(id, STATUS_CODE.PERMISSION_DENIED));
  }

  return new Promise((resolve, reject) => {
    server.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      reject(
        new ServiceabilityError(
          `cannot listen for the CDR file on ${o.bindAddress}:${o.port} (${err.code ?? err.message}): check CDR_SFTP_BIND_ADDRESS and CDR_SFTP_PORT`,
        ),
      );
    });
    server.listen(o.port, o.bindAddress, () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : o.port;
      resolve({
        user,
        password,
        port,
        file,
        close: () => finish(new ServiceabilityError(`the transfer of ${o.fileName} was abandoned`)),
      });
    });
  });
}

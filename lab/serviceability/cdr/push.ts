// get_file's delivery: the node opens an SFTP session to the billing server it is given and writes the
// file there ("the servlet initiates a (s)FTP session and sends the requested file to the application":
// the CDR On-Demand Service description). A real node always connects to port 22; the lab connects to
// the port its option says (the tests' receiver cannot bind 22), and only to loopback addresses: the lab
// never sends anything off the machine. The host key is not checked (no public source says whether a
// node checks it; the receiver's password is one-time either way).
import { posix } from 'node:path';
import { isIP } from 'node:net';
import ssh2 from 'ssh2';

export function isLoopback(host: string): boolean {
  const h = host.trim().toLowerCase();
  if (h === 'localhost' || h === '::1' || h === '[::1]') return true;
  return isIP(h) === 4 && h.startsWith('127.');
}

export interface PushTarget {
  host: string;
  port: number;
  user: string;
  password: string;
  directory: string;
  name: string;
}

/** Writes `data` as directory/name over SFTP; rejects with the reason on any failure. */
export function sftpPush(t: PushTarget, data: string, timeoutMs = 15_000): Promise<void> {
  return new Promise((resolve, reject) => {
    const conn = new ssh2.Client();
    let settled = false;
    const done = (err?: Error): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      conn.end();
      if (err) reject(err);
      else resolve();
    };
    const timer = setTimeout(() => done(new Error('the SFTP transfer timed out')), timeoutMs);
    conn.on('error', (err) => done(err));
    conn.on('ready', () => {
      conn.sftp((err, sftp) => {
        if (err) return done(err);
        sftp.writeFile(posix.join(t.directory || '/', t.name), data, (werr) => done(werr ?? undefined));
      });
    });
    conn.connect({
      host: t.host.replace(/^\[|\]$/g, ''),
      port: t.port,
      username: t.user,
      password: t.password,
      readyTimeout: timeoutMs,
      hostVerifier: () => true,
    });
  });
}

import { spawn, type ChildProcess } from 'node:child_process';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

/** Runs the signed install's server as its own process (the integrity check covers what it loads). */
export function startServerProcess(
  installDir: string,
  env: NodeJS.ProcessEnv,
): { child: ChildProcess; url: Promise<string> } {
  // As `npm start` runs it: on the install's own TypeScript loader (kernel/loader/register.mjs).
  const loader = pathToFileURL(join(installDir, 'kernel/loader/register.mjs')).href;
  const child = spawn(process.execPath, ['--import', loader, join(installDir, 'kernel/main.ts')], {
    cwd: installDir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const url = new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (\S+)/.exec(out);
      if (m) resolve(m[1] as string);
    });
    let err = '';
    child.stderr?.on('data', (d: Buffer) => {
      err += d.toString();
      process.stderr.write(d);
    });
    child.on('exit', (code) =>
      reject(new Error(`the server exited during startup (code ${code}): ${err.trim()}`)),
    );
  });
  return { child, url };
}

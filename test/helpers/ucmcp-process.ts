// Runs the `ucmcp` bin as an operator would, in its own process: arguments, an environment of its own
// (nothing inherited but PATH and HOME), optional bytes on stdin (a pipe, never a terminal).
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { PROJECT_ROOT } from '../../kernel/paths.ts';

export const UCMCP_BIN = join(PROJECT_ROOT, 'kernel', 'cli', 'ucmcp.mjs');

export interface UcmcpRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

export function runUcmcp(
  args: string[],
  o: { env?: Record<string, string>; stdin?: string; cwd?: string } = {},
): Promise<UcmcpRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [UCMCP_BIN, ...args], {
      cwd: o.cwd ?? PROJECT_ROOT,
      env: { PATH: process.env.PATH ?? '', HOME: process.env.HOME ?? '', ENV_FILE: '', ...o.env },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString('utf8')));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(o.stdin ?? '');
  });
}

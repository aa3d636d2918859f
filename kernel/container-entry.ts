// The container's command (under tini): runs the server as a child and mirrors its exit, except while
// `backup_restore --replace` (started with `docker exec`) holds STATE_DIR/.restore-in-progress: then
// the server stopping is part of the restore, and this process waits for the restore to finish before
// it exits, so the container (and the restore inside it) is not torn down halfway. The operator then
// restarts the container, as after any in-place restore.
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { restoreInProgress } from './backup/restore-marker.ts';
import { serverLoaderArgs } from './loader/index.ts';

const stateDir = process.env.STATE_DIR || join(import.meta.dirname, '..');
const POLL_MS = 500;

const server = spawn(process.execPath, serverLoaderArgs(join(import.meta.dirname, 'main.ts')), {
  stdio: 'inherit',
  env: process.env,
});
let stopRequested = false;
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.on(signal, () => {
    stopRequested = true;
    server.kill(signal);
  });
}

server.on('exit', (code, signal) => {
  const exitCode = code ?? (signal ? 1 : 0);
  if (stopRequested || !restoreInProgress(stateDir)) process.exit(exitCode);
  process.stdout.write('server stopped for an in-place restore; waiting for the restore to finish\n');
  const timer = setInterval(() => {
    if (stopRequested || !restoreInProgress(stateDir)) {
      clearInterval(timer);
      process.stdout.write('restore finished; restart the container to start the restored server\n');
      process.exit(0);
    }
  }, POLL_MS);
});

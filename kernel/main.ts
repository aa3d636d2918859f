// `npm start`: run the server from the environment and .env (or the embedded defaults).
import { ConfigError, isKernelError } from './errors/index.ts';
import { startKernel, type RunningKernel } from './lifecycle/startup.ts';

/** Exit codes, documented in the README. */
export const EXIT = { ok: 0, startupFailed: 1, configError: 2 } as const;

async function main(): Promise<void> {
  let kernel: RunningKernel;
  try {
    kernel = await startKernel();
  } catch (err) {
    // One clear line, nothing else: a ConfigError is found before any file is written.
    if (err instanceof ConfigError) {
      process.stderr.write(`ConfigError: ${err.message}\n`);
      process.exit(EXIT.configError);
    }
    const msg = isKernelError(err)
      ? `${err.code}: ${err.message}`
      : `startup failed: ${(err as Error).message}`;
    process.stderr.write(`${msg}\n`);
    process.exit(EXIT.startupFailed);
  }
  process.stdout.write(`uc-mcp-server listening on ${kernel.url}\n`);

  let stopping = false;
  const onSignal = (signal: 'SIGTERM' | 'SIGINT'): void => {
    if (stopping) return;
    stopping = true;
    const force = setTimeout(
      () => process.exit(EXIT.startupFailed),
      kernel.runtime.config.SHUTDOWN_GRACE_MS + 5_000,
    );
    force.unref();
    kernel.stop(signal).then(
      () => process.exit(EXIT.ok),
      (err: unknown) => {
        process.stderr.write(`shutdown failed: ${(err as Error).message}\n`);
        process.exit(EXIT.startupFailed);
      },
    );
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('unhandledRejection', (reason) => {
    kernel.runtime.log.error({ err: reason }, 'unhandled promise rejection');
  });
}

void main();

// `npm start`: run the server from the environment and .env (or the embedded defaults).
import { ConfigError, isKernelError } from './errors/index.ts';
import { startKernel, type RunningKernel } from './lifecycle/startup.ts';

/** Exit codes, documented in the README. */
export const EXIT = { ok: 0, failed: 1, configError: 2 } as const;

type StopSignal = 'SIGTERM' | 'SIGINT';

async function main(): Promise<void> {
  // Handlers go in before anything else, so a signal that arrives during startup or right after the
  // "listening" line still ends in a clean shutdown, never in the default kill.
  let kernel: RunningKernel | undefined;
  let pending: StopSignal | undefined;
  let stopping = false;
  const stop = (signal: StopSignal): void => {
    if (stopping) return;
    stopping = true;
    const k = kernel as RunningKernel;
    const force = setTimeout(() => process.exit(EXIT.failed), k.runtime.config.SHUTDOWN_GRACE_MS + 5_000);
    force.unref();
    k.stop(signal).then(
      () => process.exit(EXIT.ok),
      (err: unknown) => {
        process.stderr.write(`shutdown failed: ${(err as Error).message}\n`);
        process.exit(EXIT.failed);
      },
    );
  };
  const onSignal = (signal: StopSignal): void => {
    if (kernel) stop(signal);
    else pending ??= signal;
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));

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
    process.exit(EXIT.failed);
  }
  const running = kernel;
  process.on('unhandledRejection', (reason) => {
    running.runtime.log.error({ err: reason }, 'unhandled promise rejection');
  });
  if (pending) {
    stop(pending);
    return;
  }
  process.stdout.write(`uc-mcp-server listening on ${running.url}\n`);
}

void main();

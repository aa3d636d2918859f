import bunyan from 'bunyan';
import type { Config } from '../config/schema.ts';
import { toJsonLine } from './json-line.ts';
import { redact } from './redact.ts';
import { RotatingFile } from './rotating-file.ts';

export type AppLogger = bunyan;

/** A bunyan raw stream into the rotating file: one JSON line per record, secrets masked. */
class RedactingFileStream {
  constructor(private readonly file: RotatingFile) {}
  write(rec: Record<string, unknown>): void {
    try {
      this.file.writeLine(toJsonLine(redactRecord(rec)));
    } catch (err) {
      // app.log is diagnostic: a full disk must not take the server down (audit.log is the one that refuses).
      process.stderr.write(`app.log write failed: ${(err as Error).message}\n`);
    }
  }
}

class ConsoleStream {
  write(rec: Record<string, unknown>): void {
    process.stdout.write(`${toJsonLine(redactRecord(rec))}\n`);
  }
}

function redactRecord(rec: Record<string, unknown>): Record<string, unknown> {
  // Errors are serialised (message, stack, cause) inside redact, so their text is scrubbed too.
  return redact(rec) as Record<string, unknown>;
}

export interface AppLog {
  logger: AppLogger;
  file: RotatingFile;
  close(): Promise<void>;
}

/** Startup step 2 (app.log half): bunyan JSON to logs/app.log with size rotation, and the console. */
export function createAppLog(path: string, config: Config): AppLog {
  const file = new RotatingFile({
    path,
    maxBytes: config.LOGGING_ROTATE_SIZE,
    maxFiles: config.LOGGING_ROTATE_FILES,
  });
  const streams: bunyan.Stream[] = [
    {
      type: 'raw',
      level: config.LOGGING_LEVEL,
      stream: new RedactingFileStream(file) as unknown as NodeJS.WritableStream,
    },
  ];
  if (config.LOGGING_CONSOLE_ENABLED) {
    streams.push({
      type: 'raw',
      level: config.LOGGING_LEVEL,
      stream: new ConsoleStream() as unknown as NodeJS.WritableStream,
    });
  }
  // No err serializer: raw streams get the Error object and redact() serialises and scrubs it.
  const logger = bunyan.createLogger({ name: config.SERVER_NAME, streams });
  return { logger, file, close: () => file.close() };
}

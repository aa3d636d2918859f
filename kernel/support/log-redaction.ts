import { createReadStream, createWriteStream, existsSync } from 'node:fs';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { asciiJson, toJsonLine } from '../logging/json-line.ts';
import { REDACTED, redact, scrubText } from '../logging/redact.ts';
import { secretLogField } from './secret-shapes.ts';

/** A PEM block, whole or cut by a line break that split it over log lines. */
const PEM_BLOCK = /-----BEGIN [A-Z0-9 ]+-----[\s\S]*?(-----END [A-Z0-9 ]+-----|$)/g;

const PEM_BEGIN = /-----BEGIN [A-Z0-9 ]+-----/;
const PEM_END = /-----END [A-Z0-9 ]+-----/;

/**
 * One log line as the bundle shows it. The logs were masked when written; this second pass is for
 * what the writer could not know: a line from an older version, a hand-edited file, or a secret in a
 * field name the log redactor does not know. JSON lines keep their structure (key-based masking at any
 * depth, with setting-named fields judged as settings are in the .env section, plus secret-shaped text);
 * anything else is scrubbed as text. PEM blocks never pass.
 */
export function redactLogLine(line: string): string {
  let out: string;
  if (line.startsWith('{')) {
    try {
      out = toJsonLine(redact(JSON.parse(line) as unknown, 0, secretLogField));
    } catch {
      out = scrubText(line);
    }
  } else {
    out = scrubText(line);
  }
  // A bundle's log is JSON lines too: no line separator of any convention survives raw.
  return asciiJson(out.replace(PEM_BLOCK, REDACTED));
}

/**
 * Copies a log file line by line through redactLogLine into `target` (mode 0600), streaming: a log can
 * be as large as LOGGING_ROTATE_SIZE. Returns the number of lines, or null when the log does not exist.
 */
export async function copyRedactedLog(source: string, target: string): Promise<number | null> {
  if (!existsSync(source)) return null;
  const out = createWriteStream(target, { flags: 'wx', mode: 0o600 });
  const lines = createInterface({ input: createReadStream(source), crlfDelay: Infinity });
  let count = 0;
  // A raw (non-JSON) PEM block spans lines: everything up to its END line is withheld.
  let inPem = false;
  try {
    for await (const line of lines) {
      let shown: string;
      if (inPem) {
        shown = REDACTED;
        if (PEM_END.test(line)) inPem = false;
      } else {
        shown = redactLogLine(line);
        inPem =
          !line.startsWith('{') && PEM_BEGIN.test(line) && !PEM_END.test(line.slice(line.search(PEM_BEGIN)));
      }
      if (!out.write(`${shown}\n`)) await once(out, 'drain');
      count++;
    }
  } finally {
    out.end();
    await once(out, 'close');
  }
  return count;
}

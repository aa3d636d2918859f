import { parse as parseDotenv } from 'dotenv';
import { REDACTED } from '../logging/redact.ts';
import { isSecretSetting, looksLikeSecret } from './secret-shapes.ts';

const PLAIN_KEY = /^[A-Za-z_][A-Za-z0-9_.-]*$/;

/**
 * The .env file as support may see it: one `KEY=value` line per setting, in file order, the value
 * replaced by [REDACTED] when the key name suggests a secret or the value looks like one (the rule is
 * `isSecretSetting`, by pattern: names this code has never seen are caught too). The text is
 * parsed with dotenv itself (not line by line), so a quoted multi-line value such as a pasted PEM key
 * can never surface as stray lines; comments are dropped because they are free text nobody checks.
 */
export function redactEnvFile(text: string, source: string): string {
  const values = parseDotenv(text);
  const lines = [
    `# ${source}, as read by show_tech: values shown as ${REDACTED} where the key name or the value`,
    '# looks like a credential or secret. Comments and blank lines are omitted.',
  ];
  let hidden = 0;
  for (const [key, value] of Object.entries(values)) {
    if (!PLAIN_KEY.test(key) || looksLikeSecret(key)) {
      // A "key" that is itself token-shaped is most likely a pasted secret on a line of its own.
      lines.push('# (a line whose name looks like a secret was omitted)');
      hidden++;
      continue;
    }
    if (value === '') lines.push(`${key}=`);
    else if (isSecretSetting(key, value)) {
      lines.push(`${key}=${REDACTED}`);
      hidden++;
    } else lines.push(`${key}=${value.includes('\n') ? JSON.stringify(value) : value}`);
  }
  lines.push(`# ${Object.keys(values).length} settings, ${hidden} redacted.`);
  return `${lines.join('\n')}\n`;
}

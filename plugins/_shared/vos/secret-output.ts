// Secrets that VOS CLI commands print, taken out of their output before it leaves the shell client:
// what a tool returns, what an error quotes, and so what any log, audit record or support bundle could
// keep. Only the commands known to print a secret are touched; every other output is returned as is.

/** What stands where a secret was: fixed, so nothing of the value (not even its length) shows. */
export const SECRET_MARKER = '<redacted>';

interface SecretRule {
  /** The command's first words (each typed word may abbreviate its word: redacting too much is harmless). */
  words: readonly string[];
  /**
   * The whole family prints a secret whose line layout is not published: only the labels known to
   * carry no secret keep their value, and a line that is neither a label line, a numbering nor a
   * known notice is replaced whole, so an unforeseen layout fails closed. Otherwise only the values of
   * secret labels are replaced.
   */
  strict: boolean;
}

/**
 * SNMP v1/v2c community strings (`utils snmp config 1/2c community-string list`, and the trap and
 * inform destinations of `1/2c trap list` / `1/2c inform list`, which name the community they send
 * with) and SNMPv3 authentication and privacy passphrases (`utils snmp config 3 user|inform|trap ...`)
 * are credentials; `show ipsec` can name a pre-shared key. IM and Presence and Unity Connection run
 * the same VOS CLI, so one table serves every product.
 */
const RULES: readonly SecretRule[] = [
  { words: ['utils', 'snmp', 'config', '1/2c'], strict: true },
  { words: ['utils', 'snmp', 'config', '3'], strict: true },
  { words: ['utils', 'snmp'], strict: false },
  { words: ['show', 'ipsec'], strict: false },
];

/** A `label = value` or `label: value` line (after an optional `1)` numbering). */
const LABELLED = /^(\s*(?:\d+\)\s*)?)([A-Za-z][A-Za-z0-9 /()._-]*?)(\s*(?:=|:)\s*)(.*)$/;

/** Labels whose value is a secret (Authentication/Privacy *Protocol* are not: the key words are missing). */
const SECRET_LABEL =
  /communit|pass(?:word|wd|phrase)?\b|passphrase|secret|\bkey\b|pre-?shared|\bpsk\b|auth\w*\s+(?:key|pass)|priv\w*\s+(?:key|pass)/i;

/** The secret labels a strict family may show in full (any other unknown label goes whole). */
const STRICT_SECRET_LABEL =
  /^(?:community(?: string| name)?|(?:auth\w*|priv\w*)\s+(?:password|passphrase|key)|password|passphrase)$/i;

/** Labels of the strict families whose value is no secret (what the audit checks read). */
const PLAIN_LABEL =
  /^(?:access(?: privileges?)?|host(?:s| ip| name)?(?: address(?:es)?)?|ip address(?:es)?|port(?: number)?|notification(?: type)?|(?:snmp )?version|engine ?id|user ?name|authentication protocol|privacy protocol|security level|view(?: name)?|type|status)$/i;

/**
 * Lines that carry no value: blank, a numbering, a rule, a node's failure or "none configured" notice.
 * A failure line is kept so that the node's own reason still reaches the caller.
 */
const SAFE_LINE =
  /^\s*$|^\s*\d+\)\s*$|^[\s=*-]+$|^\s*(?:there are no|no (?:community|snmp|v3|users?|traps?|informs?|notification)\b.*configured|none configured|\d+\s+rows?\b)|Executed command unsuccessfully|No valid command entered|^\s*Invalid command/i;

function words(command: string): string[] {
  return command.trim().toLowerCase().split(/\s+/);
}

function ruleFor(command: string): SecretRule | undefined {
  const typed = words(command);
  // The first matching rule wins: the more specific ones come first.
  return RULES.find(
    (r) => typed.length >= r.words.length && r.words.every((w, i) => w.startsWith(typed[i] ?? '\0')),
  );
}

/** True when the command's output goes through `redactSecretOutput` (what the tests enumerate). */
export function printsSecrets(command: string): boolean {
  return ruleFor(command) !== undefined;
}

/**
 * The output with every secret value replaced by SECRET_MARKER, line for line (the same number of
 * lines, labels and numbering kept, so a reader can still count entries and read their other fields).
 */
export function redactSecretOutput(command: string, output: string): string {
  const rule = ruleFor(command);
  if (!rule) return output;
  return output
    .split('\n')
    .map((line) => {
      const m = LABELLED.exec(line);
      if (m) {
        const [, lead = '', label = '', sep = '', value = ''] = m;
        const name = label.trim();
        if (rule.strict ? STRICT_SECRET_LABEL.test(name) : SECRET_LABEL.test(name))
          return value.trim() === '' ? line : `${lead}${label}${sep}${SECRET_MARKER}`;
        // In a strict family an unknown label may itself be the secret (`public : ReadOnly`).
        if (!rule.strict || PLAIN_LABEL.test(name)) return line;
        return `${lead}${SECRET_MARKER}`;
      }
      if (!rule.strict || SAFE_LINE.test(line)) return line;
      return line.replace(/\S.*$/, SECRET_MARKER);
    })
    .join('\n');
}

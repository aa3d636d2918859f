import { scrubText } from '../logging/redact.ts';

// What the support bundle treats as a secret. Broader than the log redactor on purpose: a bundle
// leaves the installation (it is sent to support), and a hidden harmless value costs a question while
// a leaked secret costs an incident.

/**
 * Setting names that suggest a secret, matched anywhere in the name (case-insensitive), so that names
 * the code has never seen are caught: `*PASS*` (PASSWORD, PASSPHRASE, and BYPASS: a harmless false
 * positive), `*PWD*`, `*_PW` / `*PW` as a word end, `*SECRET*`, `*TOKEN*`, `*KEY*` anywhere (APIKEY,
 * SIGNINGKEY; MONKEY is a false positive we accept), `*CREDENTIAL*` and `CRED`/`CREDS` words,
 * `*PRIVATE*`, `*COOKIE*`, `*SESSION*`, `*SALT*`, `*SIGNATURE*`, `*HMAC*`, `*BEARER*`, `*JWT*`, `*OTP*`,
 * `*SEED*`, a `PIN` word, `_ENC` at the end (an encrypted secret is still a secret to whoever holds the
 * key). `AUTH` alone is NOT a secret word: the server's own `AUTH_*` settings (AUTH_CLIENTS, AUTH_BCRYPT_COST,
 * AUTH_BLACKLIST_*) are configuration support must read. It is one when it ends the name (`PROXY_AUTH`,
 * `SMTP_BASIC_AUTH`), names a header or string (`AUTH_HEADER`), or is AUTHORIZATION.
 */
const SECRET_NAME =
  /pass|pwd|pw(?=$|[_.\d-])|secret|token|key|credential|(^|_)creds?($|_)|private|cookie|session|salt|signature|hmac|bearer|jwt|otp|seed|(^|_)pin($|_)|_enc$|auth$|auth_?(header|string|info|data)|authori[sz]ation/i;

/**
 * Settings whose name matches the pattern above but whose value is known not to be secret: the TLS key
 * path (the path, not the key, even when empty), the SFTP server's public host-key fingerprint and the
 * CREDENTIALS_IN_ARGUMENTS switch. Their
 * values are still checked by shape. Durations such as AUTH_ACCESS_TOKEN_TTL_SECONDS are shown only while
 * they hold a number (`describesItself`).
 */
const KNOWN_NOT_SECRET = new Set([
  'TLS_KEY_FILE',
  // The SFTP server's public host-key fingerprint: what support compares when an upload is refused.
  'BACKUP_SFTP_HOST_KEY',
  // A switch (0 or 1): whether the credential tools accept passwords as arguments.
  'CREDENTIALS_IN_ARGUMENTS',
]);

export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name) && !KNOWN_NOT_SECRET.has(name);
}

/**
 * Field names inside the installation's own state files (JSON under secrets/ and clients/) whose string
 * values are secret. Narrower than SECRET_NAME on purpose: these values become needles the whole bundle
 * is searched for, and a camelCase field such as `keyType` ("ssh-ed25519") is no secret and is logged.
 */
const SECRET_STATE_FIELD =
  /pass|pwd|secret|token|(^|_)keys?($|_)|api_?key|credential|private|cookie|session|salt|signature|_enc$|^pin$|bearer|jwt|otp|seed/i;

export function isSecretStateField(name: string): boolean {
  return SECRET_STATE_FIELD.test(name) && !KNOWN_NOT_SECRET.has(name);
}

/** Last words that say the value is a location, a number or a switch, not the secret itself. */
const LOCATION_WORDS = new Set(['FILE', 'PATH', 'DIR', 'DIRECTORY']);
const NUMBER_WORDS = new Set([
  'SECONDS',
  'SECS',
  'MS',
  'MINUTES',
  'HOURS',
  'DAYS',
  'TTL',
  'COUNT',
  'SIZE',
  'BYTES',
  'LENGTH',
  'LIMIT',
  'MAX',
  'MIN',
  'THRESHOLD',
  'ATTEMPTS',
  'COST',
  'ROUNDS',
  'CONCURRENCY',
  'TIMEOUT',
]);
const SWITCH_WORDS = new Set(['ENABLED', 'DISABLED', 'REQUIRED']);

/**
 * True when a secret-sounding name is confirmed harmless by its last word AND its value together: a
 * `*_FILE`/`*_PATH`/`*_DIR` holding a path, a `*_TTL_SECONDS`/`*_COUNT`/... holding a plain number, a
 * `*_ENABLED` holding a boolean. Either alone is not enough: a 6-digit PIN is a plain number, and a
 * password may sit in a `*_FILE` setting by mistake.
 */
function describesItself(name: string, value: string): boolean {
  const last = name.split(/[_.-]/).pop()?.toUpperCase() ?? '';
  const v = value.trim();
  if (LOCATION_WORDS.has(last)) return /^(\/|\.{1,2}\/|~\/|[A-Za-z]:[\\/])/.test(v);
  if (NUMBER_WORDS.has(last)) return /^\d{1,12}$/.test(v);
  if (SWITCH_WORDS.has(last)) return /^(0|1|true|false|yes|no|on|off)$/i.test(v);
  return false;
}

/**
 * Whether a setting's value must be hidden wherever the bundle shows settings: its name suggests a
 * secret (unless the name's last word and the value together say otherwise), or the value looks like one.
 */
export function isSecretSetting(name: string, value: string): boolean {
  if (containsSecret(value)) return true;
  return isSecretName(name) && !describesItself(name, value);
}

/** Setting-style names (UPPER_SNAKE), as they appear in .env and in log records that quote settings. */
const SETTING_NAME = /^[A-Z][A-Z0-9]*(_[A-Z0-9]+)*$/;

/**
 * The bundle's extra rule for log records: a field named like a setting is judged as a setting. Other
 * field names keep the log redactor's own list (a `keys` field listing unknown setting names is not a
 * secret, but `*KEY*` would hide it).
 */
export function secretLogField(key: string, value: unknown): boolean {
  if (!SETTING_NAME.test(key)) return false;
  return isSecretSetting(key, typeof value === 'string' ? value : (JSON.stringify(value) ?? ''));
}

const PEM = /-----BEGIN [A-Z0-9 ]+-----/;
const JWT_LIKE = /eyJ[A-Za-z0-9_-]{4,}\.[A-Za-z0-9_-]{4,}/;
/** A public-key fingerprint (OpenSSH `SHA256:<base64>`): identifies a key, reveals nothing. */
const FINGERPRINT = /^SHA256:[A-Za-z0-9+/]{43}=?$/;
/** A dotted host name ending in a top-level label: configuration, not a token. */
const HOST_NAME = /^([a-z0-9-]+\.)+[a-z]{2,63}$/i;
/** Token alphabet (base64, base64url, hex): no spaces, colons or commas. */
const TOKEN_ALPHABET = /^[A-Za-z0-9+/=_.~-]{16,}$/;

/**
 * True when a value has the shape of a secret whatever its name: text the log redactor would mask
 * (`password=...`, bearer/basic credentials, JWTs, URL userinfo), a PEM block, or a long random-looking
 * token (letters and digits mixed, high character entropy). Paths and plain URLs are not tokens.
 */
export function looksLikeSecret(value: string): boolean {
  const v = value.trim();
  if (v === '') return false;
  if (scrubText(v) !== v || PEM.test(v) || JWT_LIKE.test(v)) return true;
  if (FINGERPRINT.test(v)) return false;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(v) || /^(\/|\.\.?\/|~\/)/.test(v) || HOST_NAME.test(v)) return false;
  return TOKEN_ALPHABET.test(v) && /\d/.test(v) && /[A-Za-z]/.test(v) && entropyBitsPerChar(v) >= 3;
}

/**
 * looksLikeSecret of the whole value, of any word in it (a token inside a list or a sentence), or of
 * any piece of a URL (a webhook URL carries its secret as a path segment).
 */
export function containsSecret(value: string): boolean {
  if (FINGERPRINT.test(value.trim())) return false;
  return (
    looksLikeSecret(value) ||
    value.split(/[\s,;|]+/).some(looksLikeSecret) ||
    value.split(/[\s,;|/?&=#@]+/).some(looksLikeSecret)
  );
}

function entropyBitsPerChar(s: string): number {
  const counts = new Map<string, number>();
  for (const ch of s) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  let bits = 0;
  for (const n of counts.values()) {
    const p = n / s.length;
    bits -= p * Math.log2(p);
  }
  return bits;
}

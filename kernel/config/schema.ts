import { z } from 'zod';
import { parseAllowEntry } from '../net/node-address-policy.ts';

// Every setting the server reads. Each key has its default here and a documented line in .env.example;
// a test keeps the two in step.

const flag = z.enum(['0', '1']).transform((v) => v === '1');
const port = z.coerce.number().int().min(0).max(65535);
const positiveInt = z.coerce.number().int().positive();
const list = z.string().transform((v) =>
  v
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s.length > 0),
);

export const configSchema = z
  .object({
    PROJECT_NAME: z.string().min(1).default('uc-mcp-server'),
    PROJECT_VERSION: z.string().default(''),
    PROJECT_CREATOR: z.string().default('uc-mcp-server maintainers'),
    STATE_DIR: z.string().default(''),
    // Where shared state lives: `local` (files and memory of this one instance) or a redis:// or
    // rediss:// URL (Redis 7 or Valkey 8) that several instances share. No password in the URL.
    STATE_BACKEND: z
      .string()
      .default('local')
      .refine((v) => v === 'local' || stateBackendUrlProblem(v) === null, {
        error: (iss) => stateBackendUrlProblem(String(iss.input)) ?? 'invalid',
      }),
    STATE_BACKEND_PASSWORD_ENC: z.string().default(''),
    STATE_BACKEND_TLS_CA_FILE: z.string().default(''),
    STATE_BACKEND_TIMEOUT_MS: positiveInt.min(50).max(30_000).default(1000),
    INSTANCE_ID: z
      .string()
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/, 'letters, digits, dot, dash and underscore (1 to 63)')
      .or(z.literal(''))
      .default(''),
    SERVER_NAME: z.string().min(1).default('uc-mcp-server'),
    SERVER_HOST: z.string().min(1).default('127.0.0.1'),
    SERVER_PORT: port.default(8443),
    PUBLIC_BASE_URL: z
      .url({ protocol: /^https$/ })
      .or(z.literal(''))
      .default(''),
    SERVER_ALLOWED_HOSTS: list.default([]),
    SERVER_ALLOWED_ORIGINS: list.default([]),
    HTTP_MAX_BODY_BYTES: positiveInt.default(1_048_576),
    MCP_TASKS_MAX_PER_CLIENT: positiveInt.max(1000).default(16),
    MCP_TASKS_MAX_TOTAL: positiveInt.max(100_000).default(256),
    MCP_TASK_TTL_SECONDS: positiveInt.min(10).max(86_400).default(3600),
    HTTP_MAX_HEADER_BYTES: positiveInt.max(1_048_576).default(16_384),
    HTTP_REQUEST_TIMEOUT_MS: positiveInt.default(120_000),
    HTTP_KEEP_ALIVE_TIMEOUT_MS: positiveInt.min(1000).max(600_000).default(65_000),
    TLS_CERT_FILE: z.string().default(''),
    TLS_KEY_FILE: z.string().default(''),
    TLS_CA_FILE: z.string().default(''),
    TLS_SAN: list.default([]),
    TLS_SELF_SIGNED_DAYS: positiveInt.max(3650).default(365),
    TLS_CHECK_HOURS: positiveInt.default(24),
    LOGGING_LEVEL: z.enum(['trace', 'debug', 'info', 'warn', 'error', 'fatal']).default('info'),
    LOGGING_ROTATE_SIZE: positiveInt.min(1024).default(5_242_880),
    LOGGING_ROTATE_FILES: z.coerce.number().int().min(1).max(1000).default(5),
    LOGGING_CONSOLE_ENABLED: flag.default(true),
    AUDIT_FSYNC: flag.default(false),
    TRUSTED_PROXIES: list.default([]),
    AUTH_CLIENTS: z.string().default(''),
    AUTH_ACCESS_TOKEN_TTL_SECONDS: positiveInt.min(60).max(86_400).default(3600),
    AUTH_REFRESH_TOKEN_TTL_SECONDS: positiveInt.min(300).default(2_592_000),
    AUTH_STARTUP_TOKEN_TTL_SECONDS: positiveInt.min(60).default(2_592_000),
    AUTH_BCRYPT_COST: z.coerce.number().int().min(4).max(15).default(12),
    AUTH_BLACKLIST_THRESHOLD: positiveInt.default(10),
    AUTH_BLACKLIST_WINDOW_SECONDS: positiveInt.default(300),
    AUTH_BLACKLIST_DURATION_SECONDS: positiveInt.default(900),
    AUTH_MAX_CONCURRENT_VERIFICATIONS: positiveInt.max(64).default(3),
    AUTH_MAX_CONCURRENT_VERIFICATIONS_PER_IP: positiveInt.max(64).default(2),
    OAUTH_REGISTRATION_ENABLED: flag.default(true),
    OAUTH_MAX_REGISTERED_CLIENTS: positiveInt.max(10_000).default(100),
    OAUTH_REGISTRATION_IDLE_DAYS: positiveInt.max(3650).default(30),
    OAUTH_REGISTRATIONS_PER_IP: positiveInt.max(10_000).default(10),
    OAUTH_REGISTRATION_WINDOW_SECONDS: positiveInt.max(86_400).default(3600),
    OAUTH_CLIENT_METADATA_DOCUMENTS: flag.default(true),
    OAUTH_CLIENT_METADATA_MAX_BYTES: positiveInt.min(512).max(65_536).default(16_384),
    OAUTH_CLIENT_METADATA_TIMEOUT_MS: positiveInt.min(100).max(30_000).default(5000),
    OAUTH_CLIENT_METADATA_CACHE_SECONDS: z.coerce.number().int().min(0).max(86_400).default(3600),
    SHUTDOWN_GRACE_MS: positiveInt.default(10_000),
    INTEGRITY_MODE: z.enum(['enforce', 'warn']).default('enforce'),
    INTEGRITY_CHECK_HOURS: positiveInt.max(8760).default(24),
    LICENSE_CHECK_SECONDS: positiveInt.min(10).default(3600),
    CREDENTIALS_IN_ARGUMENTS: flag.default(true),
    CREDENTIAL_PAGE_TTL_SECONDS: positiveInt.min(60).max(3600).default(600),
    CHANGE_PLAN_TTL_SECONDS: positiveInt.min(30).max(3600).default(600),
    CHANGE_PLANS_MAX_PER_CLIENT: positiveInt.max(10_000).default(100),
    CHANGE_JOURNAL_RETENTION_DAYS: positiveInt.max(3650).default(365),
    CHANGE_JOURNAL_MAX_BYTES_PER_CLIENT: positiveInt.min(65_536).max(1_073_741_824).default(33_554_432),
    CHANGE_JOURNAL_MAX_RECORD_BYTES: positiveInt.min(4096).max(16_777_216).default(1_048_576),
    CHROMIUM_PATH: z.string().min(1).default('/usr/bin/chromium'),
    REPORT_MAX_BYTES: positiveInt.max(1_073_741_824).default(10_485_760),
    REPORT_EXPORT_MAX_BYTES: positiveInt.max(1_073_741_824).default(2_097_152),
    REPORT_RENDER_TIMEOUT_MS: positiveInt.min(100).max(600_000).default(15_000),
    REPORT_RENDER_MEMORY_MB: positiveInt.min(16).max(4096).default(256),
    REPORT_PDF_TIMEOUT_MS: positiveInt.min(100).max(600_000).default(60_000),
    REPORT_BROWSER_IDLE_SECONDS: positiveInt.max(3600).default(20),
    REPORTS_MAX_PER_CLIENT: positiveInt.max(10_000).default(200),
    REPORTS_MAX_BYTES_PER_CLIENT: positiveInt.max(1_099_511_627_776).default(268_435_456),
    REPORT_READ_MAX_BYTES: positiveInt.min(1024).max(268_435_456).default(33_554_432),
    REPORT_LINK_TTL_SECONDS: positiveInt.min(5).max(3600).default(300),
    NODE_TIMEOUT_MS: positiveInt.min(100).max(600_000).default(60_000),
    CDR_SFTP_ADDRESS: z.string().max(255).default(''),
    CDR_SFTP_BIND_ADDRESS: z.string().min(1).max(255).default('127.0.0.1'),
    CDR_SFTP_PORT: positiveInt.max(65_535).default(22),
    CDR_SFTP_TIMEOUT_MS: positiveInt.min(1000).max(600_000).default(60_000),
    CDR_FILE_MAX_BYTES: positiveInt.max(268_435_456).default(16_777_216),
    NODE_BUDGET_MS: positiveInt.min(100).max(3_600_000).default(120_000),
    NODE_RETRY_ATTEMPTS: positiveInt.max(10).default(4),
    NODE_RETRY_BASE_MS: positiveInt.max(60_000).default(500),
    NODE_ALLOWED_NETWORKS: list.default([]).superRefine((entries, ctx) => {
      for (const e of entries)
        if (!parseAllowEntry(e))
          ctx.addIssue({
            code: 'custom',
            message: `${e} is not a CIDR, an IP address, a host name or *.domain`,
          });
    }),
    BACKUP_ENABLED: flag.default(true),
    BACKUP_INTERVAL_HOURS: positiveInt.max(8760).default(168),
    BACKUP_RETENTION_COUNT: positiveInt.max(1000).default(10),
    BACKUP_SFTP_HOST: z.string().default(''),
    BACKUP_SFTP_PORT: port.min(1).default(22),
    BACKUP_SFTP_USER: z.string().default(''),
    BACKUP_SFTP_PASSWORD_ENC: z.string().default(''),
    BACKUP_SFTP_PATH: z.string().default(''),
    BACKUP_SFTP_HOST_KEY: z.string().default(''),
  })
  .superRefine((cfg, ctx) => {
    const certSet = cfg.TLS_CERT_FILE !== '';
    const keySet = cfg.TLS_KEY_FILE !== '';
    if (certSet !== keySet) {
      ctx.addIssue({
        code: 'custom',
        path: [certSet ? 'TLS_KEY_FILE' : 'TLS_CERT_FILE'],
        message: 'TLS_CERT_FILE and TLS_KEY_FILE must be set together',
      });
    }
    // SFTP upload is all or nothing: a half-configured target would fail at every backup instead of now.
    if (cfg.BACKUP_SFTP_HOST !== '') {
      for (const key of ['BACKUP_SFTP_USER', 'BACKUP_SFTP_PASSWORD_ENC', 'BACKUP_SFTP_HOST_KEY'] as const) {
        if (cfg[key] === '')
          ctx.addIssue({ code: 'custom', path: [key], message: 'required when BACKUP_SFTP_HOST is set' });
      }
      if (cfg.BACKUP_SFTP_HOST_KEY !== '' && !/^SHA256:[A-Za-z0-9+/]{43}=?$/.test(cfg.BACKUP_SFTP_HOST_KEY)) {
        ctx.addIssue({
          code: 'custom',
          path: ['BACKUP_SFTP_HOST_KEY'],
          message:
            'must be the host key fingerprint as ssh-keygen -lf prints it: SHA256:<43 base64 characters>',
        });
      }
    }
  });

/** Why a STATE_BACKEND URL is not usable, or null. */
function stateBackendUrlProblem(v: string): string | null {
  let u: URL;
  try {
    u = new URL(v);
  } catch {
    return 'must be local or a redis:// or rediss:// URL';
  }
  if (u.protocol !== 'redis:' && u.protocol !== 'rediss:')
    return 'must be local or a redis:// or rediss:// URL';
  if (u.password !== '')
    return 'do not put a password in the URL; it is read from STATE_BACKEND_PASSWORD_ENC';
  if (u.hostname === '') return 'names no host';
  if (u.pathname !== '' && u.pathname !== '/' && !/^\/\d{1,2}$/.test(u.pathname))
    return 'the path may only be a database number (/0 to /15)';
  return null;
}

export type ConfigInput = z.input<typeof configSchema>;
export type Config = z.output<typeof configSchema>;

/** The keys of the schema, in declaration order (for .env.example and the docs test). */
export const CONFIG_KEYS = Object.keys(configSchema.shape) as (keyof Config)[];

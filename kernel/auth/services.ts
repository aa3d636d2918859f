import { join } from 'node:path';
import type { AuditLog } from '../audit/audit-log.ts';
import { clientPaths } from '../clients/client-paths.ts';
import type { Config } from '../config/schema.ts';
import type { ServerKeys } from '../keys/rsa-keys.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { StatePaths } from '../paths.ts';
import { MemoryDocumentStore } from '../store/document-store.ts';
import { MemorySlidingWindowStore, type SlidingWindowStore } from '../store/sliding-window.ts';
import type { NodeResolver } from '../net/node-address-policy.ts';
import { AccessTokens } from './access-tokens.ts';
import { AuthEvents } from './auth-events.ts';
import { AuthorizationCodes } from './authorization-codes.ts';
import { ClientMetadataDocuments } from './client-metadata-document.ts';
import { ClientSecretVerifier } from './client-secret.ts';
import { IpBlacklist, openBlacklistStore } from './ip-blacklist.ts';
import { IssuedTokenLedger } from './issued-ledger.ts';
import { PendingAuthorizations } from './pending-authorizations.ts';
import { type RefreshTokenStore, openRefreshTokenStore } from './refresh-tokens.ts';
import { openRegisteredApps, type RegisteredApps } from './registered-apps.ts';
import { type RevocationList, openRevocationList } from './revocation-list.ts';
import { oauthUrls, type OAuthUrls } from './urls.ts';
import { SecretVerificationGate } from './verification-gate.ts';

/** The authorization server's state and services, shared by the routes, the middleware and startup. */
export interface AuthServices {
  urls(): OAuthUrls;
  tokens: AccessTokens;
  revocations: RevocationList;
  refreshTokens: RefreshTokenStore;
  codes: AuthorizationCodes;
  pending: PendingAuthorizations;
  blacklist: IpBlacklist;
  ledger: IssuedTokenLedger;
  /** Every client secret check goes through here (blacklist reservation, concurrency bounds). */
  secrets: SecretVerificationGate;
  events: AuthEvents;
  /** Applications registered by RFC 7591 (secrets/oauth_apps.json). */
  apps: RegisteredApps;
  /** Applications known by a client ID metadata document (fetched, cached). */
  documents: ClientMetadataDocuments;
  /** Registrations per source address. */
  registrationWindow: SlidingWindowStore;
  settings: {
    accessTokenTtlSeconds: number;
    refreshTokenTtlSeconds: number;
    startupTokenTtlSeconds: number;
    bcryptCost: number;
    registration: { enabled: boolean; perIp: number; windowMs: number };
    metadataDocuments: boolean;
  };
}

/** Shared-state files below secrets/. */
export function authStateFiles(paths: StatePaths): {
  revocations: string;
  blacklist: string;
  refresh: string;
  apps: string;
} {
  return {
    revocations: join(paths.secrets, 'token_blacklist.json'),
    blacklist: join(paths.secrets, 'ip_blacklist.json'),
    refresh: join(paths.secrets, 'refresh_tokens.json'),
    apps: join(paths.secrets, 'oauth_apps.json'),
  };
}

/**
 * Builds the services at startup step 7. `publicBaseUrl` is read at each use: with SERVER_PORT=0 the
 * issuer is only known once the listener has its port (step 11).
 */
export function createAuthServices(deps: {
  config: Config;
  paths: StatePaths;
  keys: ServerKeys;
  audit: AuditLog;
  metrics: Metrics;
  publicBaseUrl: () => string;
  /** Time source of every expiry decision here (tests move it forward). */
  clock: () => number;
  /** How metadata documents are fetched: the test seams (name resolution, trusted CA); only code sets them. */
  metadataFetch?: { resolver?: NodeResolver; ca?: string };
}): AuthServices {
  const { config, paths, keys, audit, metrics, clock } = deps;
  const files = authStateFiles(paths);
  const urls = (): OAuthUrls => oauthUrls(deps.publicBaseUrl());
  const ledger = new IssuedTokenLedger((client) => clientPaths(paths.clients, client).issued, clock);
  const blacklist = new IpBlacklist(
    openBlacklistStore(files.blacklist),
    new MemorySlidingWindowStore(),
    audit,
    {
      threshold: config.AUTH_BLACKLIST_THRESHOLD,
      windowMs: config.AUTH_BLACKLIST_WINDOW_SECONDS * 1000,
      durationMs: config.AUTH_BLACKLIST_DURATION_SECONDS * 1000,
    },
    clock,
  );
  return {
    urls,
    tokens: new AccessTokens(keys, urls, ledger, clock),
    revocations: openRevocationList(files.revocations, clock),
    refreshTokens: openRefreshTokenStore(files.refresh, clock),
    codes: new AuthorizationCodes(new MemoryDocumentStore({}), clock),
    pending: new PendingAuthorizations(new MemoryDocumentStore({}), clock),
    blacklist,
    ledger,
    secrets: new SecretVerificationGate(new ClientSecretVerifier(config.AUTH_BCRYPT_COST), blacklist, {
      global: config.AUTH_MAX_CONCURRENT_VERIFICATIONS,
      perIp: config.AUTH_MAX_CONCURRENT_VERIFICATIONS_PER_IP,
    }),
    events: new AuthEvents(audit, metrics, blacklist),
    apps: openRegisteredApps(
      files.apps,
      { max: config.OAUTH_MAX_REGISTERED_CLIENTS, idleMs: config.OAUTH_REGISTRATION_IDLE_DAYS * 86_400_000 },
      clock,
    ),
    documents: new ClientMetadataDocuments(
      {
        maxBytes: config.OAUTH_CLIENT_METADATA_MAX_BYTES,
        timeoutMs: config.OAUTH_CLIENT_METADATA_TIMEOUT_MS,
        cacheSeconds: config.OAUTH_CLIENT_METADATA_CACHE_SECONDS,
        perIp: config.OAUTH_REGISTRATIONS_PER_IP,
        windowMs: config.OAUTH_REGISTRATION_WINDOW_SECONDS * 1000,
      },
      () => urls().issuer,
      clock,
      deps.metadataFetch ?? {},
    ),
    registrationWindow: new MemorySlidingWindowStore(),
    settings: {
      accessTokenTtlSeconds: config.AUTH_ACCESS_TOKEN_TTL_SECONDS,
      refreshTokenTtlSeconds: config.AUTH_REFRESH_TOKEN_TTL_SECONDS,
      startupTokenTtlSeconds: config.AUTH_STARTUP_TOKEN_TTL_SECONDS,
      bcryptCost: config.AUTH_BCRYPT_COST,
      registration: {
        enabled: config.OAUTH_REGISTRATION_ENABLED,
        perIp: config.OAUTH_REGISTRATIONS_PER_IP,
        windowMs: config.OAUTH_REGISTRATION_WINDOW_SECONDS * 1000,
      },
      metadataDocuments: config.OAUTH_CLIENT_METADATA_DOCUMENTS,
    },
  };
}

import { join } from 'node:path';
import type { AuditLog } from '../audit/audit-log.ts';
import { clientPaths } from '../clients/client-paths.ts';
import type { Config } from '../config/schema.ts';
import type { ServerKeys } from '../keys/rsa-keys.ts';
import type { Metrics } from '../metrics/metrics.ts';
import type { StatePaths } from '../paths.ts';
import type { StateBackend } from '../store/backend/state-backend.ts';
import { MemorySlidingWindowStore, type SlidingWindowStore } from '../store/sliding-window.ts';
import type { NodeResolver } from '../net/node-address-policy.ts';
import { AccessTokens } from './access-tokens.ts';
import { AuthEvents } from './auth-events.ts';
import { type AuthorizationCodes, openAuthorizationCodesOn } from './authorization-codes.ts';
import { ClientMetadataDocuments } from './client-metadata-document.ts';
import { ClientSecretVerifier } from './client-secret.ts';
import { IpBlacklist, openBlacklistStoreOn } from './ip-blacklist.ts';
import { type IssuedTokenLedger, issuedLedgerOn } from './issued-ledger.ts';
import { type PendingAuthorizations, pendingAuthorizationsOn } from './pending-authorizations.ts';
import { type RefreshTokenStore, openRefreshTokenStoreOn } from './refresh-tokens.ts';
import { openRegisteredAppsOn, type RegisteredApps } from './registered-apps.ts';
import { type RevocationList, openRevocationListOn } from './revocation-list.ts';
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
 * issuer is only known once the listener has its port (step 11). The state they keep (revocations, the
 * IP blacklist, refresh tokens, applications, codes, login forms, the issued-token ledger) lives on
 * `state`: the files below secrets/ and memory with the local backend, as always; the shared store
 * otherwise, where every instance sees every change.
 */
export async function createAuthServices(deps: {
  config: Config;
  state: StateBackend;
  paths: StatePaths;
  keys: ServerKeys;
  audit: AuditLog;
  metrics: Metrics;
  publicBaseUrl: () => string;
  /** Time source of every expiry decision here (tests move it forward). */
  clock: () => number;
  /** How metadata documents are fetched: the test seams (name resolution, trusted CA); only code sets them. */
  metadataFetch?: { resolver?: NodeResolver; ca?: string };
  /**
   * The state backend's windows (failure counts, registrations, metadata fetches per address), shared by
   * every instance; unset (unit tests), this process's memory.
   */
  windows?: SlidingWindowStore;
}): Promise<AuthServices> {
  const { config, paths, keys, audit, metrics, clock, state } = deps;
  const windows = deps.windows ?? new MemorySlidingWindowStore();
  const files = authStateFiles(paths);
  const urls = (): OAuthUrls => oauthUrls(deps.publicBaseUrl());
  const ledger = issuedLedgerOn(state, (client) => clientPaths(paths.clients, client).issued, clock);
  const blacklist = new IpBlacklist(
    await openBlacklistStoreOn(state, files.blacklist),
    windows,
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
    revocations: await openRevocationListOn(state, files.revocations, clock),
    refreshTokens: await openRefreshTokenStoreOn(state, files.refresh, clock),
    codes: await openAuthorizationCodesOn(state, clock),
    pending: pendingAuthorizationsOn(state, clock),
    blacklist,
    ledger,
    secrets: new SecretVerificationGate(new ClientSecretVerifier(config.AUTH_BCRYPT_COST), blacklist, {
      global: config.AUTH_MAX_CONCURRENT_VERIFICATIONS,
      perIp: config.AUTH_MAX_CONCURRENT_VERIFICATIONS_PER_IP,
    }),
    events: new AuthEvents(audit, metrics, blacklist),
    apps: await openRegisteredAppsOn(
      state,
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
      windows,
    ),
    registrationWindow: windows,
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

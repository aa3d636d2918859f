import type { AppBinding } from '../../../auth/access-tokens.ts';
import { isMetadataDocumentId } from '../../../auth/client-metadata-document.ts';
import { REGISTERED_APP_ID } from '../../../auth/registered-apps.ts';
import { shownUri } from '../../../clients/redirect-uri.ts';
import type { RegisteredClient } from '../../../clients/registry.ts';
import type { KernelRuntime } from '../../../runtime.ts';

/** Who asks at /authorize: a configured client for itself, or an application for whoever signs in. */
export type Requester =
  | { ok: true; kind: 'client'; client: RegisteredClient; redirectUris: readonly string[] }
  | {
      ok: true;
      kind: 'app';
      app: AppBinding;
      source: 'registered' | 'document';
      redirectUris: readonly string[];
    };

/** Why the client_id cannot be served: shown as an error page, never redirected. */
export interface RequesterProblem {
  ok: false;
  status: 400 | 429 | 503;
  title: string;
  message: string;
  /** Audit reason. */
  reason: string;
  retryAfterSeconds?: number;
  /** The application named, for the record (a metadata-document URL is shown bounded). */
  azp?: string;
}

/**
 * The client or application a client_id names: an https URL is a metadata document (fetched, cached),
 * `app.…` a registered application, anything else a configured client. Every failure is a clear page.
 */
export async function resolveRequester(
  rt: KernelRuntime,
  clientId: string,
  ip: string,
): Promise<Requester | RequesterProblem> {
  if (isMetadataDocumentId(clientId)) {
    const azp = shownUri(clientId);
    if (!rt.auth.settings.metadataDocuments)
      return unknown(
        'metadata_documents_disabled',
        'This server does not accept client ID metadata documents.',
      );
    const r = await rt.auth.documents.resolve(clientId, ip);
    if (!r.ok)
      return {
        ok: false,
        status: r.reason === 'rate_limited' ? 429 : r.reason === 'busy' ? 503 : 400,
        title: 'Client metadata document refused',
        message: `invalid_client: the client metadata document at ${azp} cannot be used: ${r.description}.`,
        reason: `client_metadata_${r.reason}`,
        ...(r.retryAfterSeconds !== undefined ? { retryAfterSeconds: r.retryAfterSeconds } : {}),
        azp,
      };
    const app = { id: clientId, name: r.app.client_name };
    if (r.fetched) rt.auth.events.app('APP_DOCUMENT_FETCHED', { ip, azp: app.id, client_app: app.name });
    return { ok: true, kind: 'app', app, source: 'document', redirectUris: r.app.redirect_uris };
  }
  if (REGISTERED_APP_ID.test(clientId)) {
    const registered = rt.auth.apps.get(clientId);
    if (!registered)
      return unknown(
        'unknown_app',
        'client_id does not name an application registered on this server (it may have expired unused or been removed; register again).',
      );
    return {
      ok: true,
      kind: 'app',
      app: { id: registered.client_id, name: registered.client_name },
      source: 'registered',
      redirectUris: registered.redirect_uris,
    };
  }
  const client = rt.clients.get(clientId);
  if (!client)
    return unknown('unknown_client', 'client_id does not name a client configured on this server.');
  return { ok: true, kind: 'client', client, redirectUris: client.redirectUris };
}

function unknown(reason: string, message: string): RequesterProblem {
  return { ok: false, status: 400, title: 'Unknown client', message, reason };
}

// OAuth applications in tests: an MCP host's OAuthClientProvider that starts with no client
// information (so the SDK registers it, or names it by a metadata document), a loopback HTTPS server
// that serves client metadata documents (and misbehaves on request), and a raw registration call.
import { createServer, type Server } from 'node:https';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from '@modelcontextprotocol/sdk/shared/auth.js';
import { generateSelfSigned } from './self-signed.ts';
import type { TestKernel } from './kernel.ts';

/**
 * What every MCP host's OAuthClientProvider keeps in a test: the tokens and PKCE verifier the SDK hands
 * it, and the authorization URL it would open, for the asserts. Subclasses say who the client is.
 */
export abstract class RecordingOAuthProvider implements OAuthClientProvider {
  authorizationUrl?: URL;
  saved?: OAuthTokens;
  private verifier = '';

  constructor(readonly redirectUrl: string) {}

  abstract get clientMetadata(): OAuthClientMetadata;
  abstract state(): string;
  abstract clientInformation(): OAuthClientInformationMixed | undefined;

  tokens(): OAuthTokens | undefined {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens): void {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL): void {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }
  codeVerifier(): string {
    return this.verifier;
  }
}

/**
 * A public client as Claude Code, VS Code or the Inspector are: no secret, no pre-registered client_id.
 * With `clientMetadataUrl` the SDK uses that URL as client_id when the server supports metadata
 * documents; without it, it registers (RFC 7591). What the SDK saves is kept here for the asserts.
 */
export class PublicAppProvider extends RecordingOAuthProvider {
  info?: OAuthClientInformationMixed;

  constructor(
    redirectUrl: string,
    private readonly name: string,
    readonly clientMetadataUrl?: string,
  ) {
    super(redirectUrl);
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }
  state(): string {
    return 'app-state-1';
  }
  clientInformation(): OAuthClientInformationMixed | undefined {
    return this.info;
  }
  saveClientInformation(info: OAuthClientInformationMixed): void {
    this.info = info;
  }
}

/** A client metadata document for `url` (its own client_id) with the given redirect URIs. */
export function metadataDocument(
  url: string,
  redirectUris: string[],
  name = 'Doc App',
): Record<string, unknown> {
  return {
    client_id: url,
    client_name: name,
    redirect_uris: redirectUris,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    token_endpoint_auth_method: 'none',
  };
}

export type DocumentRoute = (req: IncomingMessage, res: ServerResponse) => void;

export interface DocumentServer {
  /** https://localhost:<port><path> (the test kernels resolve localhost to 127.0.0.1 themselves). */
  url(path: string): string;
  /** The server's self-signed certificate: what the kernel is told to trust for document fetches. */
  certPem: string;
  /** Requests received, by path. */
  hits: Map<string, number>;
  /** Routes by path; unknown paths answer 404. */
  routes: Map<string, DocumentRoute>;
  close(): Promise<void>;
}

/** A loopback HTTPS server serving metadata documents (or misbehaving) per path. */
export async function documentServer(): Promise<DocumentServer> {
  const pair = generateSelfSigned(['localhost', '127.0.0.1'], 1, 'metadata documents');
  const hits = new Map<string, number>();
  const routes = new Map<string, DocumentRoute>();
  const sockets = new Set<{ destroy(): void }>();
  const server: Server = createServer({ cert: pair.certPem, key: pair.keyPem }, (req, res) => {
    const path = new URL(req.url ?? '/', 'https://localhost').pathname;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const route = routes.get(path);
    if (route) route(req, res);
    else {
      res.statusCode = 404;
      res.end();
    }
  });
  server.on('connection', (s: { destroy(): void; on(e: 'close', f: () => void): void }) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: (path) => `https://localhost:${port}${path}`,
    certPem: pair.certPem,
    hits,
    routes,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A route answering JSON with optional headers. */
export function json(body: unknown, headers: Record<string, string> = {}): DocumentRoute {
  return (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify(body));
  };
}

/** POST /register with a JSON body (or raw text or bytes); the status and the parsed answer. */
export async function registerApp(
  k: TestKernel,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; body: Record<string, unknown>; headers: Headers }> {
  const res = await k.fetch(`${k.url}/register`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: typeof body === 'string' || body instanceof Uint8Array ? body : JSON.stringify(body),
  });
  const text = await res.text();
  let parsed: Record<string, unknown>;
  try {
    parsed = JSON.parse(text) as Record<string, unknown>;
  } catch {
    parsed = { raw: text };
  }
  return { status: res.status, body: parsed, headers: res.headers as unknown as Headers };
}

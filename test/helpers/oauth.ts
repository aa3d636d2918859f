import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import type { Response } from 'undici';
import type { TestKernel } from './kernel.ts';

/** The files a client finds in clients/<name>/secrets/ after startup. */
export function clientFiles(stateDir: string, name: string): { token: string; secret: string } {
  const dir = join(stateDir, 'clients', name, 'secrets');
  return {
    token: readFileSync(join(dir, '.token'), 'utf8'),
    secret: readFileSync(join(dir, '.client_secret'), 'utf8').trim(),
  };
}

export function pkcePair(): { verifier: string; challenge: string } {
  const verifier = randomBytes(48).toString('base64url');
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

export function basicAuth(id: string, secret: string): string {
  return `Basic ${Buffer.from(`${encodeURIComponent(id)}:${encodeURIComponent(secret)}`).toString('base64')}`;
}

/** POSTs an application/x-www-form-urlencoded body. */
export function postForm(
  k: TestKernel,
  path: string,
  params: Record<string, string>,
  headers: Record<string, string> = {},
): Promise<Response> {
  return k.fetch(`${k.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(params).toString(),
    redirect: 'manual',
  });
}

export function bearer(token: string): Record<string, string> {
  return { authorization: `Bearer ${token}` };
}

export async function getStatus(
  k: TestKernel,
  token: string,
): Promise<{ status: number; body: Record<string, unknown> }> {
  const res = await k.fetch(`${k.url}/status`, { headers: bearer(token) });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

/**
 * Does what a browser does with the login page: loads it (keeping the binding cookie), reads the hidden
 * CSRF field, posts the form from the page's origin, and returns the redirect it answers with.
 */
export async function submitLogin(
  k: TestKernel,
  authorizationUrl: string,
  fields: { client_id: string; client_secret: string; decision?: 'approve' | 'deny' },
): Promise<{ status: number; location: string | null; html: string }> {
  const page = await k.fetch(authorizationUrl, { redirect: 'manual' });
  const html = await page.text();
  if (page.status !== 200) return { status: page.status, location: page.headers.get('location'), html };
  const csrf = /name="csrf" value="([^"]+)"/.exec(html)?.[1];
  if (!csrf) throw new Error('the login page has no CSRF field');
  const cookie = (page.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const res = await postForm(
    k,
    '/authorize',
    {
      csrf,
      decision: fields.decision ?? 'approve',
      client_id: fields.client_id,
      client_secret: fields.client_secret,
    },
    { cookie, origin: new URL(k.url).origin },
  );
  return { status: res.status, location: res.headers.get('location'), html: await res.text() };
}

/** Builds a GET /authorize URL with PKCE S256 and returns it with the verifier. */
export function authorizeUrl(
  k: TestKernel,
  params: { client_id: string; redirect_uri: string; state?: string; [key: string]: string | undefined },
): { url: string; verifier: string } {
  const { verifier, challenge } = pkcePair();
  const q = new URLSearchParams({
    response_type: 'code',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    state: params.state ?? randomBytes(8).toString('hex'),
  });
  for (const [key, value] of Object.entries(params)) {
    if (value === undefined) q.delete(key);
    else q.set(key, value);
  }
  return { url: `${k.url}/authorize?${q.toString()}`, verifier };
}

/** Runs the whole authorization-code flow for a client; returns the token response. */
export async function codeFlow(
  k: TestKernel,
  client: { name: string; secret: string; redirectUri: string },
): Promise<{ access_token: string; refresh_token: string; [key: string]: unknown }> {
  const { url, verifier } = authorizeUrl(k, { client_id: client.name, redirect_uri: client.redirectUri });
  const login = await submitLogin(k, url, { client_id: client.name, client_secret: client.secret });
  const code = new URL(login.location ?? '').searchParams.get('code');
  if (!code) throw new Error(`no code in ${login.location}`);
  const res = await postForm(
    k,
    '/token',
    { grant_type: 'authorization_code', code, code_verifier: verifier, redirect_uri: client.redirectUri },
    { authorization: basicAuth(client.name, client.secret) },
  );
  if (res.status !== 200) throw new Error(`token request failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as { access_token: string; refresh_token: string };
}

/** A loopback HTTP listener standing in for a native app's redirect endpoint (RFC 8252). */
export async function loopbackRedirectServer(): Promise<{
  uri: (path?: string) => string;
  received: URL[];
  close(): Promise<void>;
}> {
  const received: URL[] = [];
  const server: Server = createServer((req, res) => {
    received.push(new URL(req.url ?? '/', 'http://127.0.0.1'));
    res.setHeader('content-type', 'text/html');
    res.end('<!doctype html><title>done</title><p id="done">You may close this window.</p>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    uri: (path = '/callback') => `http://127.0.0.1:${port}${path}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Audit records of event AUTH, optionally of one status. */
export function authRecords(k: TestKernel, status?: string): Record<string, unknown>[] {
  return k.auditRecords().filter((r) => r.event === 'AUTH' && (status === undefined || r.status === status));
}

/**
 * A free TCP port on loopback. Restart tests pin SERVER_PORT with it: the issuer (and so every token's
 * `iss`) includes the port, as it does in production where the port is fixed.
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

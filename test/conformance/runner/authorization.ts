import { mkdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { pinnedFetch } from '../../helpers/https-client.ts';
import { freePort } from '../../helpers/oauth.ts';
import { signInAndApprove } from './browser.ts';
import { readRuns, runSuite, type ScenarioRun } from './suite.ts';

export const AUTHORIZATION = 'OAuth AS';
const METADATA = 'authorization-server-metadata-endpoint';
const CODE_GRANT = 'authorization-code-grant';

export interface AuthorizationTarget {
  node: string;
  caFile: string;
  /** The issuer (https://127.0.0.1:<port>) and the MCP resource its tokens are for. */
  issuer: string;
  resource: string;
  /** The configured client a person signs in as on the login page. */
  identity: { name: string; secret: string };
  outDir: string;
}

/**
 * The suite's authorization-server scenarios: the metadata document, and the authorization-code grant
 * run twice, once for the configured client itself (confidential, its secret at the token endpoint) and
 * once for an application registered through Dynamic Client Registration (public, PKCE only), the way
 * Claude Code, Codex and VS Code arrive. In both, the runner plays the person at the browser.
 */
export async function runAuthorizationScenarios(t: AuthorizationTarget): Promise<ScenarioRun[]> {
  const runs: ScenarioRun[] = [];
  const preRegistered = await codeGrant(t, 'pre-registered', {
    clientId: t.identity.name,
    clientSecret: t.identity.secret,
  });
  runs.push(...preRegistered.filter((r) => r.scenario === METADATA));
  runs.push(...rename(preRegistered, 'configured client'));

  const registered = await registerApplication(t);
  if ('error' in registered) {
    runs.push({
      scenario: `${CODE_GRANT} (DCR application)`,
      revision: AUTHORIZATION,
      checks: [
        { id: 'dynamic-client-registration', name: 'DCR', status: 'FAILURE', errorMessage: registered.error },
      ],
    });
  } else {
    const viaDcr = await codeGrant(t, 'dcr', registered);
    runs.push(...rename(viaDcr, 'DCR application'));
  }
  return runs;
}

function rename(runs: ScenarioRun[], variant: string): ScenarioRun[] {
  return runs
    .filter((r) => r.scenario === CODE_GRANT)
    .map((r) => ({ ...r, scenario: `${CODE_GRANT} (${variant})` }));
}

async function codeGrant(
  t: AuthorizationTarget,
  label: string,
  client: { clientId: string; clientSecret?: string; port?: number },
): Promise<ScenarioRun[]> {
  const outDir = join(t.outDir, `authorization-${label}`);
  mkdirSync(outDir, { recursive: true });
  const port = client.port ?? (await freePort());
  const caPem = readFileSync(t.caFile, 'utf8');
  const stop = new AbortController();
  let browserError: string | undefined;
  let awaitingUrl = false;
  const code = await runSuite(
    [
      'authorization',
      '--url',
      t.issuer,
      '--client-id',
      client.clientId,
      ...(client.clientSecret ? ['--client-secret', client.clientSecret] : []),
      '--resource',
      t.resource,
      '--port',
      String(port),
    ],
    {
      node: t.node,
      caFile: t.caFile,
      outDir,
      label: `authorization-${label}`,
      timeoutMs: 120_000,
      signal: stop.signal,
      onLine(line) {
        if (line.startsWith('Access the following URL')) awaitingUrl = true;
        else if (awaitingUrl && line.startsWith('https://')) {
          awaitingUrl = false;
          signInAndApprove(line.trim(), { caPem, identity: t.identity }).catch((err: unknown) => {
            // Nothing will reach the callback: stop the suite rather than let it wait five minutes.
            browserError = (err as Error).message;
            stop.abort();
          });
        }
      },
    },
  );
  const runs = readRuns(outDir, 'authorization-server', AUTHORIZATION);
  if (browserError !== undefined || !runs.some((r) => r.scenario === CODE_GRANT)) {
    const why = browserError ?? `the suite exited (${code}) without a result`;
    return [
      ...runs.filter((r) => r.scenario !== CODE_GRANT),
      {
        scenario: CODE_GRANT,
        revision: AUTHORIZATION,
        checks: [{ id: CODE_GRANT, name: 'AuthorizationCodeGrant', status: 'FAILURE', errorMessage: why }],
      },
    ];
  }
  return runs;
}

/** Registers a public client (RFC 7591) the way an MCP client does, for a loopback callback. */
async function registerApplication(
  t: AuthorizationTarget,
): Promise<{ clientId: string; port: number } | { error: string }> {
  const fetch = pinnedFetch(readFileSync(t.caFile, 'utf8'));
  try {
    const metadata = (await (await fetch(`${t.issuer}/.well-known/oauth-authorization-server`)).json()) as {
      registration_endpoint?: string;
    };
    if (!metadata.registration_endpoint)
      return { error: 'the authorization server metadata advertises no registration_endpoint (RFC 7591)' };
    const port = await freePort();
    const res = await fetch(metadata.registration_endpoint, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: 'MCP conformance suite',
        redirect_uris: [`http://127.0.0.1:${port}/callback`],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      }),
    });
    const body = (await res.json().catch(() => ({}))) as { client_id?: string; error?: string };
    if (res.status !== 201 || !body.client_id)
      return { error: `registration answered ${res.status}: ${JSON.stringify(body).slice(0, 200)}` };
    return { clientId: body.client_id, port };
  } finally {
    await fetch.close();
  }
}

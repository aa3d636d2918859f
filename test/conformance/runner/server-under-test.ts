import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { startTestKernel, type TestKernel } from '../../helpers/kernel.ts';
import { clientFiles } from '../../helpers/oauth.ts';
import { tempStateDir } from '../../helpers/state-dir.ts';

/** The fixture bundle's folder (a folder of bundles, as the kernel's extra plugin folders are). */
export const FIXTURE_PLUGINS = join(import.meta.dirname, '..', 'plugins');

/** The conformance suite's client: an AUTH_CLIENTS identity whose profile allows the fixture's tools. */
export const CONFORMANCE_CLIENT = 'conformance';

/**
 * Its profile: every product in scope (so the suite lists and validates the product's own tools, prompts
 * and documents too), but only the fixture's `test_*` tools callable. The gate applies to them as to
 * any tool; this profile is what lets them through.
 */
const CONFORMANCE_PROFILE = {
  name: CONFORMANCE_CLIENT,
  description: 'The MCP conformance suite: the test-only fixture tools, every product listed.',
  products: ['cucm', 'imp', 'cuc'],
  tools: { allow: ['test_*'], deny: [] },
  allowlists: {},
  rateLimits: { test: { default: { limit: 1200, windowSeconds: 60 } } },
};

export interface ServerUnderTest {
  kernel: TestKernel;
  /** https://127.0.0.1:<port> (the OAuth issuer). */
  url: string;
  mcpUrl: string;
  /** The certificate a client trusts (the local CA when the server has one, else its own certificate). */
  caFile: string;
  /** The conformance client's startup token file (the suite's bearer credential). */
  tokenFile: string;
  /** Its OAuth client secret, typed into the login page in the authorization scenarios. */
  clientSecret: string;
  stop(): Promise<void>;
}

/**
 * The product (shipped plugins, licensed for every product) plus the conformance fixture, on loopback
 * HTTPS with its own certificate, in a fresh state directory.
 */
export async function startServerUnderTest(o: { extraClients?: string[] } = {}): Promise<ServerUnderTest> {
  const state = tempStateDir('ucmcp-conformance-');
  try {
    mkdirSync(join(state.dir, 'profiles'), { recursive: true });
    writeFileSync(
      join(state.dir, 'profiles', `${CONFORMANCE_CLIENT}.json`),
      JSON.stringify(CONFORMANCE_PROFILE, null, 2),
    );
    const kernel = await startTestKernel({
      stateDir: state.dir,
      extraPluginDirs: [FIXTURE_PLUGINS],
      license: { products: ['cucm', 'imp', 'cuc'] },
      env: {
        AUTH_CLIENTS: [
          `${CONFORMANCE_CLIENT}:${CONFORMANCE_CLIENT}:cucm+imp+cuc:http://127.0.0.1/callback`,
          ...(o.extraClients ?? []),
        ].join(','),
      },
    });
    const secrets = join(state.dir, 'secrets');
    const ca = join(secrets, 'ca_cert.pem');
    return {
      kernel,
      url: kernel.url,
      mcpUrl: `${kernel.url}/mcp`,
      caFile: existsSync(ca) ? ca : join(secrets, 'tls_cert.pem'),
      tokenFile: join(state.dir, 'clients', CONFORMANCE_CLIENT, 'secrets', '.token'),
      clientSecret: clientFiles(state.dir, CONFORMANCE_CLIENT).secret,
      async stop() {
        await kernel.stop();
        state.cleanup();
      },
    };
  } catch (err) {
    state.cleanup();
    throw err;
  }
}

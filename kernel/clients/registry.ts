import type { Product } from './auth-clients.ts';
import type { ClientNarrowing } from './client-settings.ts';

/** A configured client as the rest of the kernel sees it. */
export interface RegisteredClient {
  name: string;
  /** RBAC profile name (a file in profiles/). */
  profile: string;
  /** Products the client may reach. */
  products: Product[];
  /** Registered OAuth redirect URIs (AUTH_CLIENTS fourth field and client.json together). */
  redirectUris: string[];
  /** Restrictions on top of the profile, from client.json. */
  narrowing: ClientNarrowing;
  /** bcrypt hash of the OAuth client secret. */
  secretHash: string;
  createdAt: string;
}

/** The clients in force since startup step 7, read by authentication, RBAC, /status and the tools. */
export class ClientRegistry {
  private readonly byName: ReadonlyMap<string, RegisteredClient>;

  constructor(clients: RegisteredClient[]) {
    this.byName = new Map(clients.map((c) => [c.name, c]));
  }

  get(name: string): RegisteredClient | undefined {
    return this.byName.get(name);
  }

  list(): RegisteredClient[] {
    return [...this.byName.values()];
  }

  names(): string[] {
    return [...this.byName.keys()];
  }

  get size(): number {
    return this.byName.size;
  }
}

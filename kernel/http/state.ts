import type { Context, Next, ParameterizedContext } from 'koa';

/** The authenticated caller, set by the bearer middleware. */
export interface AuthenticatedClient {
  name: string;
  profile: string;
  products: string[];
  jti: string;
  scope: string;
  /** The application the token was issued through (its `azp` and `client_app`), if any. */
  app?: { id: string; name: string | null };
}

/** Per-request data on ctx.state (typed, no global augmentation). */
export interface KernelState {
  requestId: string;
  ip: string;
  startedAt: number;
  /** Route label for metrics (the matched pattern, never the raw path). */
  route?: string;
  client?: AuthenticatedClient;
  /**
   * The route lets the bearer middleware hold the AUTH_OK record back, to go out in one write with the
   * request's next audit record (a tool call's STARTED); the route releases it sooner when none follows.
   */
  holdAuthRecord?: boolean;
}

export type KernelContext = ParameterizedContext<KernelState> & Context;
export type KernelMiddleware = (ctx: KernelContext, next: Next) => Promise<void>;

// One CUPI session: a keep-alive TLS agent toward the node and the JSESSIONID cookie it handed out.
// Unity Connection checks HTTP Basic once per session (an LDAP bind on integrated systems, and a
// failed-login counter on every check), so every request after the first carries the cookie instead.
import type { Agent } from 'node:https';
import type {
  HttpAnswer,
  HttpRequest,
  NodeEndpoint,
  RetryOptions,
  RetryPolicy,
} from '../../_shared/axl/transport.ts';
import { httpsExchange, tlsAgent, withNetworkRetry } from '../../_shared/axl/transport.ts';

/** Tomcat session ids are hex; anything that could break out of the Cookie header is ignored. */
const SESSION_ID = /^[A-Za-z0-9._~+/=-]{1,256}$/;

/** The JSESSIONID a response sets, if any (Set-Cookie may carry several cookies). */
export function jsessionIdOf(setCookie: string[] | string | undefined): string | undefined {
  const lines = setCookie === undefined ? [] : Array.isArray(setCookie) ? setCookie : [setCookie];
  for (const line of lines) {
    const m = /^\s*JSESSIONID=([^;]*)/.exec(line);
    const value = m?.[1]?.trim();
    if (value && SESSION_ID.test(value)) return value;
  }
  return undefined;
}

/** An answer and whether it was sent with the session cookie (a 401 then means the session died). */
export interface SessionAnswer {
  answer: HttpAnswer;
  withCookie: boolean;
}

export class CupiSession {
  readonly agent: Agent;
  lastUsed = Date.now();
  #cookie: string | undefined;
  /** The request that is opening the session; others wait for its cookie rather than log in too. */
  #login: Promise<void> | undefined;
  #inFlight = 0;

  constructor(readonly endpoint: NodeEndpoint) {
    this.agent = tlsAgent(endpoint);
  }

  /**
   * One request within the session, with `retry` for transient network errors (and busy answers, when
   * `options.busy` says which; the caller says whether the request is safe to repeat). Basic auth goes only with the request that opens the session; later ones carry
   * the cookie alone, so the password crosses the wire once per session and the node checks it once.
   */
  async send(
    req: HttpRequest,
    retry: RetryPolicy,
    options: RetryOptions<HttpAnswer> = {},
  ): Promise<SessionAnswer> {
    this.#inFlight++;
    try {
      return await this.#send(req, retry, options);
    } finally {
      this.#inFlight--;
      this.lastUsed = Date.now();
    }
  }

  /** A request is under way: the idle sweep and eviction leave the session alone. */
  get busy(): boolean {
    return this.#inFlight > 0;
  }

  async #send(
    req: HttpRequest,
    retry: RetryPolicy,
    options: RetryOptions<HttpAnswer>,
  ): Promise<SessionAnswer> {
    this.lastUsed = Date.now();
    while (this.#cookie === undefined && this.#login) await this.#login;
    const cookie = this.#cookie;
    const headers = { ...req.headers, ...(cookie ? { cookie: `JSESSIONID=${cookie}` } : {}) };
    const sent = withNetworkRetry(
      this.endpoint,
      retry,
      (signal) =>
        httpsExchange(this.endpoint, this.agent, {
          ...req,
          headers,
          basicAuth: cookie === undefined,
          signal,
        }),
      options,
    ).then((answer) => {
      this.#adopt(answer, cookie);
      return answer;
    });
    if (cookie === undefined) {
      // Settles after #adopt has run, so the waiters find the cookie; never rejects (each waiter
      // learns of its own failure, not of this one's).
      const login = sent.then(
        () => undefined,
        () => undefined,
      );
      this.#login = login;
      void login.then(() => {
        if (this.#login === login) this.#login = undefined;
      });
    }
    return { answer: await sent, withCookie: cookie !== undefined };
  }

  #adopt(answer: HttpAnswer, sentCookie: string | undefined): void {
    const fresh = jsessionIdOf(answer.headers['set-cookie']);
    if (fresh) this.#cookie = fresh;
    else if (answer.status === 401 && sentCookie !== undefined && this.#cookie === sentCookie)
      this.#cookie = undefined;
  }

  close(): void {
    this.agent.destroy();
  }
}

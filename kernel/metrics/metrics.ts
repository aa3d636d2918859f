import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

const PREFIX = 'ucmcp_';

/**
 * The server's metrics, in one registry per server instance (never prom-client's global one, so two
 * servers in one test process do not mix). Exposed at GET /metrics and by infra_metrics.
 */
export class Metrics {
  readonly registry = new Registry();

  readonly httpRequests = new Counter({
    name: `${PREFIX}http_requests_total`,
    help: 'HTTP requests by method, route and status code',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  readonly toolCalls = new Counter({
    name: `${PREFIX}tool_calls_total`,
    help: 'MCP tool calls by client, tool name and result (ALLOWED, DENIED, RATE_LIMITED, ERROR)',
    labelNames: ['client', 'tool', 'status'] as const,
    registers: [this.registry],
  });
  readonly toolDuration = new Histogram({
    name: `${PREFIX}tool_call_duration_seconds`,
    help: 'MCP tool call execution time',
    labelNames: ['tool'] as const,
    buckets: [0.001, 0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 30, 120],
    registers: [this.registry],
  });
  readonly authFailures = new Counter({
    name: `${PREFIX}auth_failures_total`,
    help: 'Authentication failures, all clients',
    registers: [this.registry],
  });
  readonly authFailuresByClient = new Counter({
    name: `${PREFIX}auth_failures_by_client_total`,
    help: 'Authentication failures by client ("unknown" when the token named none)',
    labelNames: ['client', 'status'] as const,
    registers: [this.registry],
  });
  readonly rateLimited = new Counter({
    name: `${PREFIX}rate_limited_total`,
    help: 'Calls refused by a rate limit, by client, product and service',
    labelNames: ['client', 'product', 'service'] as const,
    registers: [this.registry],
  });
  readonly transportRejections = new Counter({
    name: `${PREFIX}transport_rejections_total`,
    help: 'Requests refused by the Host/Origin guard and TLS handshake failures',
    labelNames: ['reason'] as const,
    registers: [this.registry],
  });
  readonly watchdogUp = new Gauge({
    name: `${PREFIX}watchdog_status`,
    help: 'Watchdog health: 1 last run succeeded, 0 last run failed, -1 not yet run',
    labelNames: ['watchdog'] as const,
    registers: [this.registry],
  });
  readonly watchdogLastRun = new Gauge({
    name: `${PREFIX}watchdog_last_run_timestamp_seconds`,
    help: 'Unix time of the last watchdog run',
    labelNames: ['watchdog'] as const,
    registers: [this.registry],
  });

  /** Where the open-session gauge reads its value: the MCP session manager, once it exists. */
  private openSessions: () => number = () => 0;
  readonly mcpSessions: Gauge = new Gauge({
    name: `${PREFIX}mcp_sessions`,
    help: 'MCP sessions open now',
    registers: [this.registry],
    collect: () => this.mcpSessions.set(this.openSessions()),
  });

  /** Whether the state store answers, read at each scrape (always 1 with the local backend). */
  private stateStoreUp: () => boolean = () => true;
  readonly stateStore: Gauge = new Gauge({
    name: `${PREFIX}state_store_up`,
    help: 'Whether this instance reaches its state store (1) or not (0): STATE_BACKEND',
    registers: [this.registry],
    collect: () => this.stateStore.set(this.stateStoreUp() ? 1 : 0),
  });

  readonly backupLastTimestamp = new Gauge({
    name: `${PREFIX}backup_last_success_timestamp_seconds`,
    help: 'Unix time of the last backup written (0: none yet since start)',
    registers: [this.registry],
  });
  readonly backupLastBytes = new Gauge({
    name: `${PREFIX}backup_last_size_bytes`,
    help: 'Size of the last backup written, in bytes',
    registers: [this.registry],
  });

  constructor() {
    const own = new Set(this.registry.getMetricsAsArray().map((m) => m.name));
    collectDefaultMetrics({ register: this.registry, prefix: PREFIX });
    // prom-client's defaults include gauges named *_total (nodejs_active_handles_total and the like),
    // which Prometheus reserves for counters (promtool rejects them). Each is only the sum of a labelled
    // gauge also exposed (sum(ucmcp_nodejs_active_handles)), so any such default is left out.
    for (const m of this.registry.getMetricsAsArray()) {
      if (!own.has(m.name) && m.name.endsWith('_total') && !(m instanceof Counter))
        this.registry.removeSingleMetric(m.name);
    }
    // The spec's three watchdogs are always listed, so a scrape shows one that has never run.
    for (const w of ['license', 'integrity', 'backup']) this.watchdogUp.set({ watchdog: w }, -1);
  }

  /** Reports the open MCP sessions from `count` at each scrape. */
  countSessionsWith(count: () => number): void {
    this.openSessions = count;
  }

  /** Reports the state store's availability from `up` at each scrape. */
  reportStateStoreWith(up: () => boolean): void {
    this.stateStoreUp = up;
  }

  async exposition(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}

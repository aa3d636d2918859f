/**
 * Scenarios of the suite that do not apply to this server, each with why. Everything else the suite
 * runs at a revision is applicable and must pass. An excluded scenario still runs: if it starts to pass,
 * the runner says its exclusion is stale (the feature arrived), and the run fails until this list is
 * corrected. Keep every reason a fact about the product or the suite, never "fails today".
 */
export interface Exclusion {
  scenario: string;
  /** The revisions it is excluded at; all when absent. */
  revisions?: string[];
  reason: string;
}

export const NOT_APPLICABLE: readonly Exclusion[] = [
  {
    scenario: 'logging-set-level',
    reason:
      'the server does not declare the logging capability: plugin logs go to app.log for the operator, never to the agent (node names, addresses); MCP logging is deprecated in 2026-07-28 (SEP-2577)',
  },
  {
    scenario: 'tools-call-with-logging',
    reason: 'no MCP logging (see logging-set-level): a tool logs to app.log, not to the client',
  },
  {
    scenario: 'resources-subscribe',
    reason:
      'the server does not declare resources.subscribe: its documents are bundled and do not change while it runs (bundles coming and going are announced by resources listChanged)',
  },
  { scenario: 'resources-unsubscribe', reason: 'no resource subscriptions (see resources-subscribe)' },
  {
    scenario: 'resources-read-binary',
    reason:
      'every document the product serves is text (Markdown, JSON); the resource contract returns text, also to agents that read documents through infra_get_doc',
  },
  {
    scenario: 'json-schema-2020-12',
    reason:
      'pending in the suite; it needs a tool named json_schema_2020_12_tool, and every tool is published as <module>_<name> with an input schema generated from zod (2020-12 dialect)',
  },
  {
    scenario: 'dns-rebinding-protection',
    reason:
      'scoped by the suite to localhost servers without HTTPS and authentication: over TLS its forged Host becomes the TLS server name (the client itself refuses the certificate) and its "valid" probe carries Origin http://, which is not this HTTPS server\'s origin; the Host/Origin guard is tested in test/kernel/http/transport-guard.test.ts',
  },
  {
    scenario: 'http-custom-header-server-validation',
    reason:
      'no tool mirrors a parameter into an Mcp-Param header: the kernel refuses x-mcp-header in tool input schemas (SEP-2243 custom headers are optional per tool); pending in the suite',
  },
  {
    scenario: 'input-required-result-non-tool-request',
    reason:
      'prompts render from their arguments alone: only tools ask the client for input (multi-round-trip requests), and a prompt that needs more declares an argument; tools are covered by the other input-required-result scenarios',
  },
  {
    scenario: 'authorization-code-grant (configured client)',
    reason:
      'the suite authenticates at the token endpoint with "none" whenever the server lists it (for public applications), even for a client it was given a secret for; a configured client is confidential and must authenticate (RFC 6749 3.2.1), so the server answers 401. The grant is run for a registered application instead (DCR application)',
  },
];

export function exclusionFor(scenario: string, revision: string): Exclusion | undefined {
  return NOT_APPLICABLE.find(
    (e) => e.scenario === scenario && (!e.revisions || e.revisions.includes(revision)),
  );
}

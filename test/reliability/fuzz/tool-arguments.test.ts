// Every registered tool, called through a real MCP SDK client against the lab stack with arguments
// generated from its own input JSON Schema: valid-ish ones (steered by realistic values so they reach
// the handler and the lab) and hostile ones (wrong types, huge strings, control characters, broken
// UTF-16, XML markup, traversal, absolute URLs, __proto__/constructor keys, deep nesting). The tools
// come from tools/list, so a new tool is fuzzed without editing this file. Each answer must be a
// success or a coded isError result (never INTERNAL_ERROR), within a time bound, with no secret in it;
// the server must still answer afterwards. Every tool that talks to a node also gets valid-ish arguments
// with one character no node can receive (NUL, a lone surrogate, what XML 1.0 cannot carry) in one of
// its strings: a coded refusal, and nothing sent to the lab. Seed: FUZZ_SEED (printed); runs per tool:
// FUZZ_RUNS.
import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import fc from 'fast-check';
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { connectMcp, startupToken } from '../../helpers/mcp-client.ts';
import { startProductStack, type ProductStack } from '../../helpers/product-stack.ts';
import { CASE_TIMEOUT_MS, fuzzParameters, fuzzRuns, fuzzSeed } from './support/fuzz-config.ts';
import { labPasswords } from './support/lab-secrets.ts';
import { toolArguments, type JsonSchema } from './support/schema-arbitrary.ts';
import { serverSecrets, type Needle } from './support/secrets.ts';
import { toolHints, type HintSources } from './support/tool-hints.ts';
import { callAndJudge } from './support/tool-oracle.ts';
import { NEVER_CARRIED, NOT_XML, uncarriableArguments } from './support/uncarriable.ts';

const RUNS_PER_TOOL = 8;
const UNCARRIABLE_RUNS_PER_TOOL = 10;

/** Arguments whose text is sent to the node (or names it): what no text can carry is refused in them. */
const CARRIED = new Set(['host', 'args', 'operation', 'select_items', 'node_name', 'state_info']);
CARRIED.add('command').add('path').add('query').add('body').add('resource').add('sort');
/** Sent in a SOAP request or typed on a CLI line: what XML 1.0 cannot carry is refused there too. */
const CARRIED_AS_XML_OR_LINE = new Set(['args', 'operation', 'select_items', 'node_name', 'command']);

/** Tools that change the admin's own credentials or trust go last, so the others still reach the lab. */
const LAST = /_(store|update|delete)_credentials$|_trust_fingerprint$/;

export function toolOrder(tools: Tool[]): Tool[] {
  return [...tools].sort(
    (a, b) => Number(LAST.test(a.name)) - Number(LAST.test(b.name)) || a.name.localeCompare(b.name),
  );
}

/** A stable per-tool offset of the seed, so adding a tool does not change the others' cases. */
export function saltOf(name: string): number {
  let h = 0;
  for (const ch of name) h = (h * 31 + ch.charCodeAt(0)) | 0;
  return Math.abs(h) % 100_000;
}

export function preview(args: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(args);
  } catch {
    text = String(args);
  }
  return text.length > 400 ? `${text.slice(0, 400)}... (${text.length} chars)` : text;
}

describe('tool arguments fuzzed from each input schema, through a real MCP SDK client', () => {
  let s: ProductStack;
  let tools: Tool[];
  let needles: Needle[];
  let sources: HintSources;
  before(async () => {
    // The admin's vault gets every lab credential and pinned host key before the server starts; the AXL
    // and RIS schemas are fetched once, so those tools can reach the lab from the first case.
    s = await startProductStack({ seedVaultFor: ['admin', 'operator', 'auditor'] });
    await s.ok('admin', 'cucm_download_axl_toolkit', { host: s.node('cucm').name });
    await s.ok('admin', 'imp_download_axl_toolkit', { host: s.node('imp').name });
    await s.ok('admin', 'cucm_download_ris_toolkit', { host: s.node('cucm').name });
    const admin = s.mcp.admin.client;
    tools = (await admin.listTools()).tools;
    const prompts = (await admin.listPrompts()).prompts.map((p) => p.name);
    const docs = (await s.ok('admin', 'infra_list_docs')) as { docs?: { name: string }[] };
    sources = { lab: s.lab.info, prompts, docs: (docs.docs ?? []).map((d) => d.name) };
    needles = serverSecrets(s.k.stateDir, labPasswords(s.lab.info));
  });
  after(async () => {
    await s.stop();
  });

  it('tools/list is every tool the registry holds, so every tool is fuzzed', () => {
    const registered = s.k.kernel.mcp.registry
      .activeTools()
      .map((t) => t.name)
      .sort();
    assert.deepEqual(tools.map((t) => t.name).sort(), registered);
    assert.ok(tools.length >= 60, `${tools.length} tools`);
  });

  it('a character a node cannot carry, in any string of a node tool, is a coded refusal before anything is sent', async (t) => {
    t.diagnostic(`seed ${fuzzSeed()}, ${fuzzRuns(UNCARRIABLE_RUNS_PER_TOOL)} runs per tool`);
    const nodeTools = tools.filter((x) => x.annotations?.openWorldHint === true);
    assert.ok(nodeTools.length >= 15, nodeTools.map((x) => x.name).join(', '));
    const log = s.lab.state.log;
    for (const tool of toolOrder(nodeTools)) {
      await t.test(tool.name, async () => {
        const cases = uncarriableArguments(tool.inputSchema as JsonSchema, toolHints(tool.name, sources));
        await fc.assert(
          fc.asyncProperty(cases, async (c) => {
            const [requests, commands] = [log.requests.length, log.commands.length];
            // The operator's own rate-limit windows: the admin's stay whole for the fuzzing below.
            const v = await callAndJudge(s.mcp.operator.client, tool.name, c.args, needles, CASE_TIMEOUT_MS);
            const what = `${tool.name}(${preview(c.args)}) with U+${c.char.charCodeAt(0).toString(16)} in ${c.argument}`;
            assert.deepEqual(v.problems, [], what);
            // list_axl_operations reads the local schema cache; its host is only asked when no version is given.
            const carried = CARRIED.has(c.argument) && !tool.name.endsWith('_list_axl_operations');
            const refused =
              ((NEVER_CARRIED as readonly string[]).includes(c.char) && carried) ||
              ((NOT_XML as readonly string[]).includes(c.char) && CARRIED_AS_XML_OR_LINE.has(c.argument));
            if (!refused) return;
            // check_connectivity reports each service's failure in its answer rather than failing.
            if (!tool.name.endsWith('_check_connectivity')) assert.notEqual(v.outcome, 'OK', what);
            const sent = [...log.requests.slice(requests), ...log.commands.slice(commands)];
            assert.deepEqual(sent, [], `nothing sent: ${what}`);
          }),
          fuzzParameters(UNCARRIABLE_RUNS_PER_TOOL, saltOf(tool.name)),
        );
      });
    }
  });

  it('every tool answers success or a coded error: no INTERNAL_ERROR, hang, stack or secret', async (t) => {
    t.diagnostic(
      `seed ${fuzzSeed()} (FUZZ_SEED to replay), ${fuzzRuns(RUNS_PER_TOOL)} runs per tool (FUZZ_RUNS)`,
    );
    const outcomes: Record<string, Record<string, number>> = {};
    for (const tool of toolOrder(tools)) {
      await t.test(tool.name, async () => {
        const seen: Record<string, number> = (outcomes[tool.name] = {});
        const args = toolArguments(tool.inputSchema as JsonSchema, toolHints(tool.name, sources));
        await fc.assert(
          fc.asyncProperty(args, async (a) => {
            const v = await callAndJudge(s.mcp.admin.client, tool.name, a, needles, CASE_TIMEOUT_MS);
            seen[v.outcome] = (seen[v.outcome] ?? 0) + 1;
            assert.deepEqual(v.problems, [], `${tool.name}(${preview(a)})`);
          }),
          fuzzParameters(RUNS_PER_TOOL, saltOf(tool.name)),
        );
      });
    }
    const reached = Object.values(outcomes).filter((o) => Object.keys(o).some((k) => k !== 'BAD_REQUEST'));
    t.diagnostic(`outcomes: ${JSON.stringify(outcomes)}`);
    // The generator is not only bouncing off validation: most tools got past it at least once.
    assert.ok(
      reached.length >= tools.length * 0.8,
      `${reached.length} of ${tools.length} tools got past validation`,
    );

    // Still serving: the same session, and a brand-new one.
    await s.ok('admin', 'infra_health');
    const fresh = await connectMcp(s.k, startupToken(s.k.stateDir, 'auditor1'));
    try {
      assert.ok((await fresh.client.listTools()).tools.length > 0);
    } finally {
      await fresh.close();
    }
  });
});

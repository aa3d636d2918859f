// What an agent's context pays for the tool surface, per shipped profile, through a real MCP client
// (2025-11-25), in bytes of JSON and approximate tokens (bytes / 4):
// - tools/list as it travels (every field, output schemas and annotations included);
// - the part a model receives: a client hands the model each tool's name, description and input schema
//   (the Anthropic and OpenAI tool definitions have no field for output schemas or annotations, which
//   the client itself uses), measured as that JSON;
// - the infra_init_session result (the whole CallToolResult, content and structuredContent).
// Sizes only, no timings; the kernel runs in-process with a license for every product.
//   node --import tsx bench/tool-surface.ts
import { startTestKernel } from '../test/helpers/kernel.ts';
import { connectMcp, startupToken } from '../test/helpers/mcp-client.ts';

const CLIENTS = [
  { name: 'a', profile: 'admin', products: 'cucm+imp+cuc' },
  { name: 'o', profile: 'operator', products: 'cucm+imp+cuc' },
  { name: 'u', profile: 'auditor', products: 'cucm+imp+cuc' },
  { name: 'uc', profile: 'auditor', products: 'cucm' },
] as const;

const kb = (n: number): string => `${(n / 1024).toFixed(1)} KB`;
const tokens = (n: number): string => `~${Math.round(n / 4)}`;

const k = await startTestKernel({
  env: {
    AUTH_CLIENTS: CLIENTS.map((c) => `${c.name}:${c.profile}:${c.products}`).join(','),
    AUTH_BCRYPT_COST: '4',
  },
  license: { products: ['cucm', 'imp', 'cuc'] },
});
const rows: string[][] = [];
try {
  for (const c of CLIENTS) {
    const mcp = await connectMcp(k, startupToken(k.stateDir, c.name));
    try {
      const list = await mcp.client.listTools();
      const listBytes = Buffer.byteLength(JSON.stringify(list));
      // What the output schemas (issue 18, point 5) add to the list; the list before them had none.
      const outputBytes = list.tools.reduce(
        (n, t) => n + (t.outputSchema ? Buffer.byteLength(JSON.stringify(t.outputSchema)) + 16 : 0),
        0,
      );
      const modelBytes = Buffer.byteLength(
        JSON.stringify(
          list.tools.map((t) => ({ name: t.name, description: t.description, input_schema: t.inputSchema })),
        ),
      );
      const init = await mcp.call('infra_init_session');
      if (init.isError) throw new Error(`infra_init_session failed for ${c.name}: ${JSON.stringify(init)}`);
      const initBytes = Buffer.byteLength(JSON.stringify(init));
      rows.push([
        `${c.name} (${c.profile}, ${c.products})`,
        String(list.tools.length),
        kb(listBytes),
        kb(outputBytes),
        kb(modelBytes),
        tokens(modelBytes),
        kb(initBytes),
        tokens(initBytes),
        tokens(modelBytes + initBytes),
      ]);
    } finally {
      await mcp.close();
    }
  }
} finally {
  await k.stop();
}

const head = [
  'client',
  'tools',
  'tools/list (wire)',
  'of it outputSchema',
  'to the model',
  'tokens',
  'init_session',
  'tokens',
  'model + init, tokens',
];
const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] as string).length)));
const line = (r: string[]): string =>
  r
    .map((v, i) => v.padEnd(widths[i] as number))
    .join('  ')
    .trimEnd();
process.stdout.write(`${line(head)}\n${line(widths.map((w) => '-'.repeat(w)))}\n`);
for (const r of rows) process.stdout.write(`${line(r)}\n`);

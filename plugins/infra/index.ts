import { definePlugin } from '../../kernel/sdk/index.ts';
import getDoc from './tools/get-doc.ts';
import getMyPermissions from './tools/get-my-permissions.ts';
import getPrompt from './tools/get-prompt.ts';
import health from './tools/health.ts';
import initSession from './tools/init-session.ts';
import listAvailableProducts from './tools/list-available-products.ts';
import listDocs from './tools/list-docs.ts';
import listPrompts from './tools/list-prompts.ts';
import metrics from './tools/metrics.ts';
import serverStatus from './tools/server-status.ts';

/** Session initialisation, health, metrics, permission introspection, prompt and doc access. Always loaded. */
export default definePlugin({
  id: 'infra',
  version: '1.0.0',
  kernel: '^1',
  product: null,
  module: 'infra',
  requires: [],
  tools: [
    initSession,
    health,
    metrics,
    serverStatus,
    listAvailableProducts,
    getMyPermissions,
    listPrompts,
    getPrompt,
    listDocs,
    getDoc,
  ],
  prompts: [],
  resources: [],
});

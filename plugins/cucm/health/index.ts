// The CUCM serviceability prompts: the cluster health check and the registration troubleshooting.
import type { PromptDefinition } from '../../../kernel/sdk/index.ts';
import { healthCheckPrompt } from '../../_shared/health/prompt.ts';
import { workflowPrompt } from '../../_shared/health/workflow.ts';
import { CUCM_HEALTH } from './items.ts';
import { CUCM_TROUBLESHOOT_REGISTRATION } from './troubleshoot.ts';

export const cucmHealthPrompts: PromptDefinition[] = [
  // The backup history (utils disaster_recovery history backup) is in the auditor's and the admin's
  // SSH allowlists only.
  healthCheckPrompt(CUCM_HEALTH, ['admin', 'auditor']),
  workflowPrompt(CUCM_TROUBLESHOOT_REGISTRATION),
];

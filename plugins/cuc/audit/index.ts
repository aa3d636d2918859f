// The Unity Connection security-audit prompt and its reference resources: the security guide (rendered
// from the checklist), the read-only VOS CLI guide and the CUPI endpoint catalogue.
import {
  markdownFileResource,
  markdownFolderResource,
  securityAuditPrompt,
  securityGuideResource,
} from '../../_shared/audit/definitions.ts';
import type { PromptDefinition, ResourceDefinition } from '../../../kernel/sdk/index.ts';
import { CUC_CHECKLIST } from './checklist.ts';

export const cucAuditPrompts: PromptDefinition[] = [securityAuditPrompt(CUC_CHECKLIST)];

export const cucAuditResources: ResourceDefinition[] = [
  securityGuideResource(CUC_CHECKLIST),
  markdownFolderResource({
    uriTemplate: 'cuc://cli-guide-readonly/{topic}',
    name: 'cuc-cli-guide-readonly',
    title: 'Unity Connection read-only VOS CLI guide (project reference)',
    description:
      'The read-only VOS CLI commands the CUC tools and the security audit use, one document per topic: syntax, output shape, risk, and which default profiles allow them.',
    dir: `${import.meta.dirname}/cli-guide-readonly`,
  }),
  markdownFileResource({
    uri: 'cuc://cupi/reference',
    name: 'cuc-cupi-reference',
    title: 'CUPI endpoint catalogue (project reference)',
    description:
      'The Cisco Unity Connection Provisioning Interface (/vmrest) resources the CUC tools and the audit use: verbs, payloads, paging, list shapes, errors, and CUC 14 vs 15 differences.',
    file: `${import.meta.dirname}/cupi-reference.md`,
  }),
];

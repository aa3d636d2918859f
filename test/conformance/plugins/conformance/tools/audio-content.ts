import { defineTool } from '../../../../../kernel/sdk/index.ts';
import { SILENT_WAV } from '../media.ts';
import { LOCAL_READ_ONLY } from './annotations.ts';

/** tools-call-audio. */
export default defineTool({
  name: 'audio_content',
  title: 'Audio content (conformance)',
  description: 'Returns a short WAV audio block. MCP conformance fixture.',
  input: {},
  annotations: LOCAL_READ_ONLY,
  access: { minProfile: 'auditor' },
  service: 'default',
  async handler() {
    return { content: [{ type: 'audio', data: SILENT_WAV, mimeType: 'audio/wav' }] };
  },
});

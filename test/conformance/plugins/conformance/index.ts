// The MCP conformance suite's fixture (@modelcontextprotocol/conformance server scenarios), written
// against kernel/sdk like a vendor's bundle. Test-only: it lives under test/ (never shipped), its module
// `test` is refused in the shipped plugins folder, and only the conformance runner loads it. Its tools
// pass the same gate as every other (license, profile, rate limit, audit).
import { definePlugin } from '../../../../kernel/sdk/index.ts';
import promptWithArguments from './prompts/prompt-with-arguments.ts';
import promptWithEmbeddedResource from './prompts/prompt-with-embedded-resource.ts';
import promptWithImage from './prompts/prompt-with-image.ts';
import simplePrompt from './prompts/simple-prompt.ts';
import staticText from './resources/static-text.ts';
import templateData from './resources/template-data.ts';
import audioContent from './tools/audio-content.ts';
import capabilitiesRound from './tools/input/capabilities-round.ts';
import elicitationDefaults from './tools/input/elicitation-defaults.ts';
import elicitationEnums from './tools/input/elicitation-enums.ts';
import elicitationRound from './tools/input/elicitation-round.ts';
import elicitation from './tools/input/elicitation.ts';
import listRootsRound from './tools/input/list-roots-round.ts';
import missingCapability from './tools/input/missing-capability.ts';
import multiRound from './tools/input/multi-round.ts';
import multipleInputsRound from './tools/input/multiple-inputs-round.ts';
import requestStateRound from './tools/input/request-state-round.ts';
import samplingRound from './tools/input/sampling-round.ts';
import sampling from './tools/input/sampling.ts';
import streamingElicitation from './tools/input/streaming-elicitation.ts';
import tamperedStateRound from './tools/input/tampered-state-round.ts';
import embeddedResource from './tools/embedded-resource.ts';
import errorHandling from './tools/error-handling.ts';
import imageContent from './tools/image-content.ts';
import loggingTool from './tools/logging-tool.ts';
import multipleContentTypes from './tools/multiple-content-types.ts';
import simpleText from './tools/simple-text.ts';
import toolWithProgress from './tools/tool-with-progress.ts';

export default definePlugin({
  id: 'conformance',
  version: '1.0.0',
  kernel: '^1.2',
  product: null,
  module: 'test',
  requires: [],
  tools: [
    simpleText,
    imageContent,
    audioContent,
    embeddedResource,
    multipleContentTypes,
    errorHandling,
    toolWithProgress,
    loggingTool,
    // Multi-round-trip (SEP-2322): served as input-required results on 2026-07-28, and on 2025-11-25
    // as requests the SDK sends the client itself.
    elicitationRound,
    samplingRound,
    listRootsRound,
    requestStateRound,
    multipleInputsRound,
    multiRound,
    tamperedStateRound,
    capabilitiesRound,
    missingCapability,
    streamingElicitation,
    sampling,
    elicitation,
    elicitationDefaults,
    elicitationEnums,
  ],
  prompts: [simplePrompt, promptWithArguments, promptWithEmbeddedResource, promptWithImage],
  resources: [staticText, templateData],
});

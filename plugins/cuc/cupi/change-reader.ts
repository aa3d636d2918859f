// The before-image reader of CUPI changes over the caller's CUPI session: a 404 is an absent object.
import type { ClientVault } from '../../../kernel/sdk/index.ts';
import { CUPIError } from '../../../kernel/sdk/index.ts';
import type { Json } from '../../_shared/axl/schema.ts';
import type { CupiReader } from '../../_shared/changes/cupi-change.ts';
import { CupiNodeError, isJsonObject } from './answers.ts';
import type { CupiClients } from './cupi-clients.ts';

export function cupiChangeReader(
  clients: CupiClients,
  vault: ClientVault,
  host: string,
  signal?: AbortSignal,
): CupiReader {
  return {
    async get(path) {
      try {
        const answer = await clients.request(vault, host, { method: 'GET', path }, signal);
        if (!isJsonObject(answer.body))
          throw new CUPIError(`CUPI GET ${answer.path} on ${host} answered no object`);
        return answer.body as Record<string, Json>;
      } catch (err) {
        if (err instanceof CupiNodeError && err.nodeStatus === 404) return undefined;
        throw err;
      }
    },
  };
}

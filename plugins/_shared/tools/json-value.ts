import { z } from '../../../kernel/sdk/index.ts';
import type { Json } from '../axl/schema.ts';

/** Any JSON value, for tool arguments that carry a request body (AXL, CUPI). */
export const jsonValue: z.ZodType<Json> = z.lazy(() =>
  z.union([
    z.string(),
    z.number(),
    z.boolean(),
    z.null(),
    z.array(jsonValue),
    z.record(z.string(), jsonValue),
  ]),
);

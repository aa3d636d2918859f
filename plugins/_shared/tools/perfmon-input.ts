// Arguments the PerfMon tools share. Names reach the node inside XML: controls are refused by the
// schema here (and escaped when sent), so a typo or an injection attempt costs none of the node's budget.
import { z } from '../../../kernel/sdk/index.ts';

/** Printable text only: PerfMon object, counter and instance names never hold controls or backslashes. */
export const perfmonName = z
  .string()
  .trim()
  .min(1)
  .max(256)
  .regex(/^[^\\\p{Cc}\p{Cs}]+$/u, 'no backslash or control character');

export const perfmonNode = z
  .string()
  .trim()
  .min(1)
  .max(255)
  .regex(/^[A-Za-z0-9._:-]+$/, 'a node name or IP address');

import type { Database } from '../../informix/database.ts';
import type { LabLog } from '../../state/log.ts';
import type { XmlObject } from '../../xml/parse.ts';
import type { XmlOutObject } from '../../xml/write.ts';

export interface AxlContext {
  db: Database;
  node: string;
  log: LabLog;
}

export interface AxlResult {
  /** The children of `<ns:{operation}Response>`. */
  body: XmlOutObject;
  /** Rows the answer carries, for the "Query request too large" fault. */
  rows?: number;
}

export interface AxlOperation {
  name: string;
  /** Writes count toward the 503 throttle. */
  write: boolean;
  handle(ctx: AxlContext, request: XmlObject): AxlResult;
}

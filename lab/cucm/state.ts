import type { Database } from '../informix/database.ts';
import type { VosState } from '../vos/state.ts';
import type { CdrRepository } from './cdr/repository.ts';
import type { RisState } from './ris/registrations.ts';

/** The CUCM publisher: its database (AXL and SQL both work on it), RisPort state and OS settings. */
export interface CucmState {
  node: string;
  db: Database;
  ris: RisState;
  os: VosState;
  /** Times `/plugins/axlsqltoolkit.zip` was served. */
  toolkitDownloads: number;
  /** The CDR Repository (CDRonDemand lists it); tests add files to it. */
  cdr: CdrRepository;
}

// The serviceability SOAP services every VOS node serves (CUCM, IM&P, Unity Connection), built from the
// node's live state. A new service: a folder here with its WSDL (wsdl.ts tables) and its SoapServiceDef,
// added to the list below; mount.ts puts it on the node's HTTPS listener.
import type { RisState } from '../cucm/ris/registrations.ts';
import type { NodeServices } from '../vos/services.ts';
import type { VosProduct } from '../vos/state.ts';
import type { CdrRepository } from '../cucm/cdr/repository.ts';
import { cdrOnDemandService } from './cdr/service.ts';
import { controlCenterService } from './control-center/operations.ts';
import { getFileService } from './logs/get-file.ts';
import { LOG_COLLECTION_PER_MINUTE, logCollectionService } from './logs/service.ts';
import { perfmonService } from './perfmon/service.ts';
import type { SoapServiceDef } from './service.ts';

/** What the services may read of the node they run on. */
export interface ServiceabilityView {
  product: VosProduct;
  /** The node serving them (its name, as `show network cluster` lists it). */
  node: string;
  /** Every node of its cluster, itself included (PerfMon's Host may name any of them). */
  clusterNodes: () => string[];
  /** CUCM only: the RIS registrations (PerfMon's Cisco CallManager counters count them). */
  ris?: RisState;
  /** When the node booted, epoch ms (uptime-based counters grow from it). */
  bootedAt: number;
  /** PerfmonService requests the node accepts per minute (the lab option). */
  perfmonPerMinute: number;
  /** LogCollectionPortTypeService requests the node accepts per minute (the lab option); default 15. */
  logCollectionPerMinute?: number;
  /**
   * The node's services, live (lab/vos/services.ts): Control Center reads and changes them, the CLI too.
   * Every node's start-up gives them; without them (a unit test's view) the node serves no Control Center.
   */
  services?: NodeServices;
  /** Other names the node answers to in a request's NodeName: its FQDN and IP. */
  aliases?: string[];
  /**
   * CUCM's CDR Repository node (the publisher): CDRonDemandService over its files, at this rate, pushing
   * get_file's files to this port.
   */
  cdr?: { repository: CdrRepository; perMinute: number; pushPort: number };
}

export function serviceabilityServices(view: ServiceabilityView): SoapServiceDef[] {
  return [
    perfmonService(view, () => view.perfmonPerMinute),
    logCollectionService(view, () => view.logCollectionPerMinute ?? LOG_COLLECTION_PER_MINUTE),
    getFileService(view, () => view.logCollectionPerMinute ?? LOG_COLLECTION_PER_MINUTE),
    ...(view.services
      ? [controlCenterService({ names: [view.node, ...(view.aliases ?? [])], services: view.services })]
      : []),
    ...(view.cdr
      ? [
          cdrOnDemandService({
            repository: view.cdr.repository,
            perMinute: () => view.cdr?.perMinute ?? 0,
            pushPort: () => view.cdr?.pushPort ?? 22,
          }),
        ]
      : []),
  ];
}

// What Control Center knows about each service of a product: deployable (a feature service, activated
// per node) or not (a network service), its type and group. Names: the services a Control Center client
// reads from CUCM and IM and Presence 10.x nodes (phnowicki/serviceabilitytools, servicelists/servicelist.txt:
// its feature services come first, then the network services, which is how this catalogue splits them).
// The lab spells the CTI service "Cisco CTIManager" as the CLI does; that list types it "Cisco CTI Manager".
// Unity Connection's own "Connection ..." services and the group names are not confirmed by a source read
// here: the groups are those of the Cisco Unified Serviceability pages, the Connection services are
// controllable (Unity Connection Serviceability starts and stops them).
import type { ServiceSpec } from './services.ts';
import type { VosProduct } from './state.ts';

type Spec = Omit<ServiceSpec, 'name'>;

const feature = (group: string, type: Spec['type'] = 'Service'): Spec => ({
  type,
  deployable: true,
  group,
  dependents: [],
});
const network = (group: string, type: Spec['type'] = 'Service'): Spec => ({
  type,
  deployable: false,
  group,
  dependents: [],
});

const CUCM_FEATURES: Record<string, Spec> = {
  'Cisco CallManager': feature('CM Services'),
  'Cisco CTIManager': feature('CM Services'),
  'Cisco Tftp': feature('CM Services'),
  'Cisco Extension Mobility': feature('CM Services', 'Servlet'),
  'Cisco AXL Web Service': feature('Database and Admin Services', 'Servlet'),
  'Cisco UXL Web Service': feature('Database and Admin Services', 'Servlet'),
  'Cisco Bulk Provisioning Service': feature('Database and Admin Services', 'Servlet'),
  'Cisco CTL Provider': feature('Security Services'),
  'Cisco Certificate Authority Proxy Function': feature('Security Services'),
  'Cisco DirSync': feature('Directory Services'),
};

const IMP_FEATURES: Record<string, Spec> = {
  'Cisco AXL Web Service': feature('Database and Admin Services', 'Servlet'),
  'Cisco Bulk Provisioning Service': feature('Database and Admin Services', 'Servlet'),
  'Cisco SIP Proxy': feature('IM and Presence Services'),
  'Cisco Presence Engine': feature('IM and Presence Services'),
  'Cisco XCP Text Conference Manager': feature('IM and Presence Services'),
  'Cisco XCP File Transfer Manager': feature('IM and Presence Services'),
  'Cisco XCP Connection Manager': feature('IM and Presence Services'),
  'Cisco XCP SIP Federation Connection Manager': feature('IM and Presence Services'),
  'Cisco XCP XMPP Federation Connection Manager': feature('IM and Presence Services'),
  'Cisco XCP Directory Service': feature('IM and Presence Services'),
  'Cisco XCP Authentication Service': feature('IM and Presence Services'),
};

const SERVLETS = new Set([
  'Cisco CallManager Admin',
  'Cisco CallManager Cisco IP Phone Services',
  'Cisco CallManager Serviceability',
  'Cisco CallManager Serviceability RTMT',
  'Cisco RTMT Reporter Servlet',
  'Cisco Tomcat Stats Servlet',
  'Platform Administrative Web Service',
]);

function networkGroup(name: string): string {
  if (/^(A Cisco DB|Cisco Database Layer Monitor|Cluster Manager)/.test(name)) return 'Database Services';
  if (/^Cisco DRF/.test(name)) return 'Backup and Restore Services';
  if (/^Cisco CAR/.test(name)) return 'CDR Services';
  if (/(Agent|SNMP|Syslog|CDP|AMC|RIS|Log Partition|RTMT|Stats|Trace)/.test(name))
    return 'Performance and Monitoring Services';
  if (/^(Cisco Tomcat|Platform|System SSH|Cisco Certificate|Cisco Audit|Cisco Trust)/.test(name))
    return 'Platform Services';
  if (/^Cisco CallManager/.test(name)) return 'Admin Services';
  return 'IM and Presence Services';
}

/** The catalogue entry of `name` on a node of `product` (a name it does not list is a network service). */
export function serviceSpec(product: VosProduct, name: string): Spec {
  const features = product === 'cucm' ? CUCM_FEATURES : product === 'imp' ? IMP_FEATURES : {};
  const known = features[name];
  if (known) return known;
  if (product === 'cuc' && name.startsWith('Connection ')) return feature('Unity Connection Services');
  return network(networkGroup(name), SERVLETS.has(name) ? 'Servlet' : 'Service');
}

// The lab's CDRonDemandService WSDL, written for the project from the public API's names: the path
// /CDRonDemandService2/services/CDRonDemandService (the WSDL URL in CiscoDevNet/serviceability-python-zeep-samples,
// README), the namespace and binding {http://schemas.cisco.com/ast/soap}CDRonDemandSoapBinding (the public
// zeep clients bind to it), the operation get_file_list with its arguments in0 (start, string), in1 (end,
// string) and in2 (boolean), and its answer get_file_listReturn of FileName strings (a SOAP::WSDL typemap
// generated from the 9.1 WSDL, CiscoUC::CDR::9_1::Typemaps::CDRonDemandService, lists exactly these; the
// calltelemetry/cisco-cucm-mcp client, src/cdr-on-demand.ts, sends in0..in2 the same way), and get_file
// with in0 host, in1 user, in2 password, in3 remote directory, in4 file name (strings) and in5 (boolean,
// secure FTP), answered by an empty get_fileResponse (the same typemap; the public zeep client's
// get_file(in0=sftp_ip, in1=sftp_user, in2=sftp_pass, in3=sftp_directory, in4=file_name, in5=sftp)).
import type { Field, WsdlOperation } from '../wsdl.ts';
import { wsdlDocument, XSD } from '../wsdl.ts';

export const CDR_PATH = '/CDRonDemandService2/services/CDRonDemandService';
export const CDR_NAMESPACE = 'http://schemas.cisco.com/ast/soap';

const TYPES: Record<string, Field[]> = {
  ArrayOfFileName: [['FileName', XSD.string, true]],
};

const OPERATIONS: WsdlOperation[] = [
  {
    name: 'get_file_list',
    input: [
      ['in0', XSD.string],
      ['in1', XSD.string],
      ['in2', XSD.boolean],
    ],
    output: [['get_file_listReturn', 'tns:ArrayOfFileName']],
  },
  {
    name: 'get_file',
    input: [
      ['in0', XSD.string],
      ['in1', XSD.string],
      ['in2', XSD.string],
      ['in3', XSD.string],
      ['in4', XSD.string],
      ['in5', XSD.boolean],
    ],
    output: [],
  },
];

export function cdrWsdl(location: string): string {
  return wsdlDocument({
    service: 'CDRonDemandService',
    port: 'CDRonDemandService',
    portType: 'CDRonDemand',
    binding: 'CDRonDemandSoapBinding',
    namespace: CDR_NAMESPACE,
    location,
    types: TYPES,
    operations: OPERATIONS,
    comment:
      "CDRonDemandService of the ucmcp lab, written for the project from the public API names (not Cisco's file)",
  });
}

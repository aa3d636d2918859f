"""python zeep against the lab's CDRonDemandService, the way public clients drive a real CUCM's CDR
Repository node (zeep bound to {http://schemas.cisco.com/ast/soap}CDRonDemandSoapBinding, get_file_list with
in0/in1 as YYYYMMDDHHMM UTC and in2): the WSDL the publisher serves, loaded with strict validation over
HTTPS verified against the node's certificate, one hour listed, only the failed files of that hour, and
the fault for a span over one hour.

Usage: cdr_on_demand.py <lab-info.json> <workdir> <start YYYYMMDDHHMM> <end YYYYMMDDHHMM> <too-late end>
Prints one JSON object of results on stdout; exits 1 with the reason on stderr at the first failure.
"""

import json

from zeep.exceptions import Fault

from lab_soap import node, script_args, served_service

BINDING = "{http://schemas.cisco.com/ast/soap}CDRonDemandSoapBinding"
PATH = "/CDRonDemandService2/services/CDRonDemandService"


def names(answer):
    """get_file_listReturn holds the FileName strings; zeep unwraps the single child, or gives None."""
    if answer is None:
        return []
    if isinstance(answer, list):
        return [str(x) for x in answer]
    found = getattr(answer, "FileName", None)
    return [str(x) for x in (found or [])]


def main():
    info, workdir, rest = script_args(__doc__, 3)
    start, end, too_late = rest[:3]
    cdr = served_service(info, node(info, "cucm"), workdir, PATH, BINDING, "CDRonDemandService")
    every = names(cdr.get_file_list(in0=start, in1=end, in2=True))
    failed = names(cdr.get_file_list(in0=start, in1=end, in2=False))
    fault = ""
    try:
        cdr.get_file_list(in0=start, in1=too_late, in2=True)
    except Fault as e:
        fault = e.message
    print(json.dumps({"all": every, "failed": failed, "fault": fault}))


if __name__ == "__main__":
    main()

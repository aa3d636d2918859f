"""python zeep against the lab's CDRonDemandService, the way public clients drive a real CUCM's CDR
Repository node (zeep bound to {http://schemas.cisco.com/ast/soap}CDRonDemandSoapBinding, get_file_list with
in0/in1 as YYYYMMDDHHMM UTC and in2): the WSDL the publisher serves, loaded with strict validation over
HTTPS verified against the node's certificate, one hour listed, only the failed files of that hour, and
the fault for a span over one hour.

Usage: cdr_on_demand.py <lab-info.json> <workdir> <start YYYYMMDDHHMM> <end YYYYMMDDHHMM> <too-late end>
Prints one JSON object of results on stdout; exits 1 with the reason on stderr at the first failure.
"""

import json
import os
import sys

import requests
from requests.auth import HTTPBasicAuth
from zeep import Client, Settings
from zeep.exceptions import Fault
from zeep.transports import Transport

BINDING = "{http://schemas.cisco.com/ast/soap}CDRonDemandSoapBinding"
PATH = "/CDRonDemandService2/services/CDRonDemandService"


def fail(message):
    sys.stderr.write(message + "\n")
    sys.exit(1)


def names(answer):
    """get_file_listReturn holds the FileName strings; zeep unwraps the single child, or gives None."""
    if answer is None:
        return []
    if isinstance(answer, list):
        return [str(x) for x in answer]
    found = getattr(answer, "FileName", None)
    return [str(x) for x in (found or [])]


def main():
    info_path, workdir, start, end, too_late = sys.argv[1:6]
    with open(info_path) as f:
        info = json.load(f)
    n = next((x for x in info["nodes"] if x["product"] == "cucm"), None)
    if n is None:
        fail("the lab has no cucm node")
    pem = n.get("certPem") if n.get("selfSigned", True) and n.get("certPem") else info["caCertPem"]
    verify = os.path.join(workdir, "cdr-trust.pem")
    with open(verify, "w") as f:
        f.write(pem)
    s = requests.Session()
    s.trust_env = False
    cred = n["credentials"]["axl"]
    s.auth = HTTPBasicAuth(cred["user"], cred["password"])
    s.verify = verify
    url = "https://%s%s" % (n["address"], PATH)
    r = s.get(url + "?wsdl", timeout=60)
    if r.status_code != 200:
        fail("the WSDL answered HTTP %d" % r.status_code)
    wsdl = os.path.join(workdir, "CDRonDemandService.wsdl")
    with open(wsdl, "wb") as f:
        f.write(r.content)
    client = Client(wsdl, settings=Settings(strict=True), transport=Transport(session=s, timeout=60))
    cdr = client.create_service(BINDING, url)
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

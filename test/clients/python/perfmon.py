"""python zeep against the lab's PerfmonService, as Cisco's own samples drive a real node
(CiscoDevNet/serviceability-python-zeep-samples: perfmonPort_collect_counter_data.py,
perfmonPort_collect_session_data.py): the WSDL the node serves, loaded with strict validation over HTTPS
verified against the node's certificate, then perfmonListCounter and perfmonCollectCounterData on the
CUCM, IM&P and Unity Connection nodes, and a session sampling a percentage counter twice on the CUCM.

Usage: perfmon.py <lab-info.json> <workdir>
Prints one JSON object of results on stdout; exits 1 with the reason on stderr at the first failure.
"""

import json
import os
import sys
import time

import requests
from requests.auth import HTTPBasicAuth
from zeep import Client, Settings
from zeep.transports import Transport

BINDING = "{http://schemas.cisco.com/ast/soap}PerfmonBinding"
PATH = "/perfmonservice2/services/PerfmonService"
LOGIN = {"cucm": "axl", "imp": "axl", "cuc": "cupi"}


def fail(message):
    sys.stderr.write(message + "\n")
    sys.exit(1)


def service_for(info, n, workdir):
    pem = n.get("certPem") if n.get("selfSigned", True) and n.get("certPem") else info["caCertPem"]
    verify = os.path.join(workdir, "%s-perfmon-trust.pem" % n["name"])
    with open(verify, "w") as f:
        f.write(pem)
    s = requests.Session()
    s.trust_env = False
    cred = n["credentials"][LOGIN[n["product"]]]
    s.auth = HTTPBasicAuth(cred["user"], cred["password"])
    s.verify = verify
    url = "https://%s%s" % (n["address"], PATH)
    r = s.get(url + "?wsdl", timeout=60)
    if r.status_code != 200:
        fail("%s: the WSDL answered HTTP %d" % (n["name"], r.status_code))
    wsdl = os.path.join(workdir, "%s-PerfmonService.wsdl" % n["name"])
    with open(wsdl, "wb") as f:
        f.write(r.content)
    client = Client(wsdl, settings=Settings(strict=True), transport=Transport(session=s, timeout=60))
    return client.create_service(BINDING, url)


def name(v):
    """A name type is simple content: zeep gives its text as _value_1 (as Cisco's sample reads it)."""
    return v._value_1 if hasattr(v, "_value_1") else str(v)


def main():
    info_path, workdir = sys.argv[1], sys.argv[2]
    with open(info_path) as f:
        info = json.load(f)
    results = {}
    for product, obj in (("cucm", "Cisco CallManager"), ("imp", "Cisco XCP CM"), ("cuc", "Memory")):
        n = next((x for x in info["nodes"] if x["product"] == product), None)
        if n is None:
            fail("the lab has no %s node" % product)
        pm = service_for(info, n, workdir)
        objects = pm.perfmonListCounter(Host=n["name"])
        values = pm.perfmonCollectCounterData(Host=n["name"], Object=obj)
        results[product] = {
            "objects": sorted(name(o.Name) for o in objects),
            "counters": {name(v.Name).split("\\")[-1]: v.Value for v in values},
        }
        if product == "cucm":
            handle = pm.perfmonOpenSession()
            path = "\\\\%s\\Processor(_Total)\\%% CPU Time" % n["name"]
            pm.perfmonAddCounter(SessionHandle=handle, ArrayOfCounter={"Counter": [{"Name": path}]})
            first = pm.perfmonCollectSessionData(SessionHandle=handle)
            time.sleep(1)
            second = pm.perfmonCollectSessionData(SessionHandle=handle)
            pm.perfmonCloseSession(SessionHandle=handle)
            results["session"] = {
                "handle": name(handle),
                "first": [first[0].Value, first[0].CStatus],
                "second": [second[0].Value, second[0].CStatus],
            }
    print(json.dumps(results))


if __name__ == "__main__":
    main()

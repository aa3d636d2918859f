"""python zeep against the lab's PerfmonService, as Cisco's own samples drive a real node
(CiscoDevNet/serviceability-python-zeep-samples: perfmonPort_collect_counter_data.py,
perfmonPort_collect_session_data.py): the WSDL the node serves, loaded with strict validation over HTTPS
verified against the node's certificate, then perfmonListCounter and perfmonCollectCounterData on the
CUCM, IM&P and Unity Connection nodes, and a session sampling a percentage counter twice on the CUCM.

Usage: perfmon.py <lab-info.json> <workdir>
Prints one JSON object of results on stdout; exits 1 with the reason on stderr at the first failure.
"""

import json
import time

from lab_soap import node, script_args, served_service

BINDING = "{http://schemas.cisco.com/ast/soap}PerfmonBinding"
PATH = "/perfmonservice2/services/PerfmonService"


def name(v):
    """A name type is simple content: zeep gives its text as _value_1 (as Cisco's sample reads it)."""
    return v._value_1 if hasattr(v, "_value_1") else str(v)


def main():
    info, workdir, _ = script_args(__doc__)
    results = {}
    for product, obj in (("cucm", "Cisco CallManager"), ("imp", "Cisco XCP CM"), ("cuc", "Memory")):
        n = node(info, product)
        pm = served_service(info, n, workdir, PATH, BINDING, "PerfmonService")
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

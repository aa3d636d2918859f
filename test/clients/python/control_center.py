"""python zeep against the lab's ControlCenterServices, as Cisco's own samples drive a real node
(CiscoDevNet/serviceability-python-zeep-samples: services_soapGetServiceStatus.py,
services_doControlServices.py): the WSDL the node serves, loaded with strict validation over HTTPS verified
against the node's certificate, then soapGetServiceStatus, soapGetStaticServiceList and a stop and start
through soapDoControlServices bound to ControlCenterServicesBinding, on the CUCM, IM&P and Unity
Connection nodes.

Usage: control_center.py <lab-info.json> <workdir>
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

BINDING = "{http://schemas.cisco.com/ast/soap}ControlCenterServicesBinding"
PATH = "/controlcenterservice2/services/ControlCenterServices"
LOGIN = {"cucm": "axl", "imp": "axl", "cuc": "cupi"}


def fail(message):
    sys.stderr.write(message + "\n")
    sys.exit(1)


def trust_file(info, n, workdir):
    """The node's own certificate when it is self-signed (its `selfSigned` flag), else the lab CA."""
    pem = n.get("certPem") if n.get("selfSigned", True) and n.get("certPem") else info["caCertPem"]
    path = os.path.join(workdir, "%s-cc-trust.pem" % n["name"])
    with open(path, "w") as f:
        f.write(pem)
    return path


def service_for(info, n, workdir):
    verify = trust_file(info, n, workdir)
    s = requests.Session()
    s.trust_env = False
    cred = n["credentials"][LOGIN[n["product"]]]
    s.auth = HTTPBasicAuth(cred["user"], cred["password"])
    s.verify = verify
    url = "https://%s%s" % (n["address"], PATH)
    r = s.get(url + "?wsdl", timeout=60)
    if r.status_code != 200:
        fail("%s: the WSDL answered HTTP %d" % (n["name"], r.status_code))
    wsdl = os.path.join(workdir, "%s-ControlCenterServices.wsdl" % n["name"])
    with open(wsdl, "wb") as f:
        f.write(r.content)
    client = Client(wsdl, settings=Settings(strict=True), transport=Transport(session=s, timeout=60))
    return client.create_service(BINDING, url)


def states(resp):
    return {i.ServiceName: i.ServiceStatus for i in resp.ServiceInfoList.item}


def main():
    info_path, workdir = sys.argv[1], sys.argv[2]
    with open(info_path) as f:
        info = json.load(f)
    results = {}
    for product, service in (("cucm", "Cisco Tftp"), ("imp", "Cisco Presence Engine"), ("cuc", "Connection Mixer")):
        n = next((x for x in info["nodes"] if x["product"] == product), None)
        if n is None:
            fail("the lab has no %s node" % product)
        cc = service_for(info, n, workdir)
        every = cc.soapGetServiceStatus([""])
        static = cc.soapGetStaticServiceList("")
        # zeep unwraps an element with a single child: StaticServiceList may come back as its Services.
        specs = static.Services if "Services" in dir(static) else static
        deployable = {i.ServiceName: i.Deployable for i in specs.item}
        # As Cisco's sample: no NodeName (the API acts on the node it runs on).
        stop = cc.soapDoControlServices({"ControlType": "Stop", "ServiceList": {"item": [service]}})
        stopped = states(cc.soapGetServiceStatus([service]))[service]
        start = cc.soapDoControlServices(
            {"NodeName": n["name"], "ControlType": "Start", "ServiceList": {"item": [service]}}
        )
        try:
            cc.soapDoControlServices(
                {"NodeName": "no-such-node", "ControlType": "Stop", "ServiceList": {"item": [service]}}
            )
            other_node = "answered"
        except Fault as err:
            other_node = str(err)
        results[product] = {
            "services": len(every.ServiceInfoList.item),
            "returnCode": every.ReturnCode,
            "started": sum(1 for i in every.ServiceInfoList.item if i.ServiceStatus == "Started"),
            "deployable": deployable.get(service),
            "tomcatDeployable": deployable.get("Cisco Tomcat"),
            "stopAnswer": [stop.ServiceInfoList.item[0].ServiceStatus, stop.ServiceInfoList.item[0].ReasonCode],
            "stoppedStatus": stopped,
            "startAnswer": start.ServiceInfoList.item[0].ServiceStatus,
            "otherNode": other_node,
        }
    print(json.dumps(results))


if __name__ == "__main__":
    main()

"""python zeep against the lab's LogCollectionPortTypeService, as Cisco's own sample drives a real node
(CiscoDevNet/serviceability-python-zeep-samples: logcollection_GetOneFile.py): the WSDL the node serves,
loaded with strict validation over HTTPS verified against the node's certificate, bound to
LogCollectionPortSoapBinding; listNodeServiceLogs, then selectLogFiles with every criterion the sample
sends, on the CUCM, IM&P and Unity Connection nodes. The answers come as Axis2 MTOM (multipart/related),
which zeep reads as a real node's.

Usage: log_collection.py <lab-info.json> <workdir>
Prints one JSON object of results on stdout; exits 1 with the reason on stderr at the first failure.
"""

import json
import os
import sys

import requests
from requests.auth import HTTPBasicAuth
from zeep import Client, Settings
from zeep.transports import Transport

BINDING = "{http://schemas.cisco.com/ast/soap}LogCollectionPortSoapBinding"
PATH = "/logcollectionservice2/services/LogCollectionPortTypeService"
LOGIN = {"cucm": "axl", "imp": "axl", "cuc": "cupi"}


def fail(message):
    sys.stderr.write(message + "\n")
    sys.exit(1)


def trust_file(info, n, workdir):
    """The node's own certificate when it is self-signed (its `selfSigned` flag), else the lab CA."""
    pem = n.get("certPem") if n.get("selfSigned", True) and n.get("certPem") else info["caCertPem"]
    path = os.path.join(workdir, "%s-lc-trust.pem" % n["name"])
    with open(path, "w") as f:
        f.write(pem)
    return path


def service_for(info, n, workdir):
    s = requests.Session()
    s.trust_env = False
    cred = n["credentials"][LOGIN[n["product"]]]
    s.auth = HTTPBasicAuth(cred["user"], cred["password"])
    s.verify = trust_file(info, n, workdir)
    url = "https://%s%s" % (n["address"], PATH)
    r = s.get(url + "?wsdl", timeout=60)
    if r.status_code != 200:
        fail("%s: the WSDL answered HTTP %d" % (n["name"], r.status_code))
    wsdl = os.path.join(workdir, "%s-LogCollection.wsdl" % n["name"])
    with open(wsdl, "wb") as f:
        f.write(r.content)
    client = Client(wsdl, settings=Settings(strict=True), transport=Transport(session=s, timeout=60))
    return client.create_service(BINDING, url)


def main():
    info_path, workdir = sys.argv[1], sys.argv[2]
    with open(info_path) as f:
        info = json.load(f)
    results = {}
    for product, log in (("cucm", "Cisco CallManager"), ("imp", "Cisco XCP Router"), ("cuc", "Connection Notifier")):
        n = next((x for x in info["nodes"] if x["product"] == product), None)
        if n is None:
            fail("the lab has no %s node" % product)
        lc = service_for(info, n, workdir)
        listed = lc.listNodeServiceLogs("")
        # The sample's criteria: every element present, RelText None and RelTime 0.
        selected = lc.selectLogFiles(
            FileSelectionCriteria={
                "ServiceLogs": {"item": [log]},
                "SystemLogs": {"item": []},
                "SearchStr": "",
                "Frequency": "OnDemand",
                "JobType": "DownloadtoClient",
                "ToDate": "",
                "FromDate": "",
                "TimeZone": "",
                "RelText": "None",
                "RelTime": 0,
                "Port": 0,
                "IPAddress": "",
                "UserName": "",
                "Password": "",
                "ZipInfo": False,
                "RemoteFolder": "",
            }
        )
        result = selected.SchemaFileSelectionResult if "SchemaFileSelectionResult" in dir(selected) else selected
        logs = result.Node.ServiceList.ServiceLogs
        files = logs[0].SetOfFiles.File
        results[product] = {
            "nodes": [x.name for x in listed],
            "serviceLogs": list(listed[0].ServiceLog.item),
            "systemLogs": list(listed[0].SystemLog.item),
            "node": result.Node.name,
            "log": logs[0].name,
            "files": len(files),
            "first": {"name": files[0].name, "path": files[0].absolutepath, "size": files[0].filesize},
        }
    print(json.dumps(results))


if __name__ == "__main__":
    main()

"""python zeep against the lab's LogCollectionPortTypeService, as Cisco's own sample drives a real node
(CiscoDevNet/serviceability-python-zeep-samples: logcollection_GetOneFile.py): the WSDL the node serves,
loaded with strict validation over HTTPS verified against the node's certificate, bound to
LogCollectionPortSoapBinding; listNodeServiceLogs, then selectLogFiles with every criterion the sample
sends, then GetOneFile of the first file listed, on the CUCM, IM&P and Unity Connection nodes. The answers come as Axis2 MTOM (multipart/related),
which zeep reads as a real node's.

Usage: log_collection.py <lab-info.json> <workdir>
Prints one JSON object of results on stdout; exits 1 with the reason on stderr at the first failure.
"""

import hashlib
import json

from lab_soap import node, script_args, served_service

BINDING = "{http://schemas.cisco.com/ast/soap}LogCollectionPortSoapBinding"
PATH = "/logcollectionservice2/services/LogCollectionPortTypeService"


def main():
    info, workdir, _ = script_args(__doc__)
    results = {}
    for product, log in (("cucm", "Cisco CallManager"), ("imp", "Cisco XCP Router"), ("cuc", "Connection Notifier")):
        n = node(info, product)
        lc = served_service(info, n, workdir, PATH, BINDING, "LogCollection")
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
        # GetOneFile as the sample calls it: the file's absolute path alone; zeep reads the MTOM answer's
        # XOP part back into the bytes of GetOneFileReturn.
        data = lc.GetOneFile(files[0].absolutepath)
        results[product] = {
            "got": {"bytes": len(data), "sha256": hashlib.sha256(data).hexdigest(), "type": type(data).__name__},
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

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

from zeep.exceptions import Fault

from lab_soap import node, script_args, served_service

BINDING = "{http://schemas.cisco.com/ast/soap}ControlCenterServicesBinding"
PATH = "/controlcenterservice2/services/ControlCenterServices"


def states(resp):
    return {i.ServiceName: i.ServiceStatus for i in resp.ServiceInfoList.item}


def main():
    info, workdir, _ = script_args(__doc__)
    results = {}
    for product, service in (("cucm", "Cisco Tftp"), ("imp", "Cisco Presence Engine"), ("cuc", "Connection Mixer")):
        n = node(info, product)
        cc = served_service(info, n, workdir, PATH, BINDING, "ControlCenterServices")
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

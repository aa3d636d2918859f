"""What every python client of the lab sets up before its first SOAP call, the way Cisco's own samples
(CiscoDevNet/serviceability-python-zeep-samples) set up zeep against a real node: the lab's description
read, a node found by product, HTTPS verified against that node's certificate (or the lab CA), a requests
session with the node's login as HTTP basic auth, and a zeep service built with strict validation from the
WSDL the node itself serves.

The scripts beside this module import it; they are run as `python3 -B <script>` (the script's folder is on
sys.path, and no bytecode is written into the source tree).
"""

import json
import os
import sys

import requests
from requests.auth import HTTPBasicAuth
from zeep import Client, Settings
from zeep.transports import Transport

# The credential each product's serviceability APIs take, as the product stores it
# (plugins/_shared/serviceability/api.ts SERVICEABILITY_LOGIN): an AXL application user on CUCM and
# IM&P, the CUPI administrator on Unity Connection.
LOGIN = {"cucm": "axl", "imp": "axl", "cuc": "cupi"}


def fail(message):
    sys.stderr.write(message + "\n")
    sys.exit(1)


def script_args(usage, needs=0):
    """The lab description and the work folder every script is given first, then its own arguments (at
    least `needs` of them)."""
    if len(sys.argv) < 3 + needs:
        fail(usage)
    with open(sys.argv[1]) as f:
        info = json.load(f)
    return info, sys.argv[2], sys.argv[3:]


def node(info, product):
    for n in info["nodes"]:
        if n["product"] == product:
            return n
    fail("the lab has no %s node" % product)


def trust_file(info, n, workdir):
    """The node's own certificate when it is self-signed (its `selfSigned` flag), else the lab CA."""
    pem = n.get("certPem") if n.get("selfSigned", True) and n.get("certPem") else info["caCertPem"]
    path = os.path.join(workdir, "%s-trust.pem" % n["name"])
    with open(path, "w") as f:
        f.write(pem)
    return path


def session_for(n, kind, verify):
    s = requests.Session()
    # Only the pinned certificate: REQUESTS_CA_BUNDLE and friends would replace it for zeep's posts.
    s.trust_env = False
    cred = n["credentials"][kind]
    s.auth = HTTPBasicAuth(cred["user"], cred["password"])
    s.verify = verify
    return s


def served_service(info, n, workdir, path, binding, name):
    """A zeep service for the node's SOAP API at `path`, from the WSDL the node serves there (`?wsdl`),
    with the product's serviceability login."""
    s = session_for(n, LOGIN[n["product"]], trust_file(info, n, workdir))
    url = "https://%s%s" % (n["address"], path)
    r = s.get(url + "?wsdl", timeout=60)
    if r.status_code != 200:
        fail("%s: the WSDL answered HTTP %d" % (n["name"], r.status_code))
    wsdl = os.path.join(workdir, "%s-%s.wsdl" % (n["name"], name))
    with open(wsdl, "wb") as f:
        f.write(r.content)
    client = Client(wsdl, settings=Settings(strict=True), transport=Transport(session=s, timeout=60))
    return client.create_service(binding, url)

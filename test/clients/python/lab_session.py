"""A scripted session against the lab with independent Python clients, the way a CUCM engineer drives a
real cluster: python zeep with the real AXL 15.0 and RisPort70 WSDLs (strict validation, HTTPS verified
against the node's own certificate), and paramiko for the VOS CLI (keyboard-interactive, the host key
checked against the fingerprint the lab announces, a paged command read through the real pager).

Usage: lab_session.py <lab-info.json> <workdir> [<AXLAPI.wsdl>] [<RISService70.wsdl>]
Without an AXL WSDL the lab's own, from its AXL toolkit download, is used; without a RisPort70 WSDL,
the one the node serves. Prints one JSON object of
results on stdout; exits 1 with the reason on stderr at the first failure.
"""

import base64
import hashlib
import io
import json
import os
import re
import socket
import time
import zipfile

import paramiko
import requests
from zeep import Client, Settings
from zeep.transports import Transport

from lab_soap import fail, node, script_args, session_for, trust_file

AXL_BINDING = "{http://www.cisco.com/AXLAPIService/}AXLAPIBinding"
RIS_BINDING = "{http://schemas.cisco.com/ast/soap}RisBinding"
PAGER = "Press <enter> for 1 line, <space> for one page, or <q> to quit"
ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")
PAGER_AT_END = re.compile(re.escape(PAGER) + r"(?:\x1b\[[0-9;]*[A-Za-z])*$")


def dig(answer, *keys):
    """Follows the wrappers of an AXL answer. The real schema's responses extend APIResponse (a
    `sequence` attribute beside `return`), so zeep keeps each wrapper; where an element has a single
    child and no attribute zeep unwraps it, so a wrapper already gone is skipped."""
    value = answer
    for key in keys:
        try:
            value = value[key]
        except (KeyError, TypeError, AttributeError):
            pass
    return value


def toolkit_wsdl(n, verify, workdir):
    """The lab's own WSDL, from the AXL toolkit zip a CUCM admin downloads from the node."""
    s = requests.Session()
    s.trust_env = False
    r = s.get(n["urls"]["toolkit"], verify=verify, timeout=60)
    r.raise_for_status()
    out = os.path.join(workdir, "toolkit")
    with zipfile.ZipFile(io.BytesIO(r.content)) as z:
        z.extractall(out)
    for root, _dirs, files in os.walk(out):
        if "AXLAPI.wsdl" in files and ("current" in root or "15.0" in root):
            return os.path.join(root, "AXLAPI.wsdl")
    for root, _dirs, files in os.walk(out):
        if "AXLAPI.wsdl" in files:
            return os.path.join(root, "AXLAPI.wsdl")
    fail("the toolkit zip holds no AXLAPI.wsdl")


def axl_session(info, workdir, wsdl):
    cucm = node(info, "cucm")
    verify = trust_file(info, cucm, workdir)
    source = "fixture"
    if not wsdl:
        wsdl = toolkit_wsdl(cucm, verify, workdir)
        source = "toolkit"
    transport = Transport(session=session_for(cucm, "axl", verify), timeout=60, operation_timeout=120)
    client = Client(wsdl, settings=Settings(strict=True, xml_huge_tree=True), transport=transport)
    axl = client.create_service(AXL_BINDING, cucm["urls"]["axl"])
    out = {"wsdl": source}

    version = axl.getCCMVersion()
    out["version"] = dig(version, "return", "componentVersion", "version")

    listed = axl.listPhone(
        searchCriteria={"name": "SEP%"},
        returnedTags={"name": "", "model": "", "description": "", "protocol": ""},
    )
    phones = dig(listed, "return", "phone") or []
    out["listPhone"] = len(phones)
    if not phones:
        fail("listPhone returned no phone")
    first = phones[0]["name"]

    got = axl.getPhone(name=first)
    phone = dig(got, "return", "phone")
    lines = phone["lines"]
    count = len(lines["line"]) if lines is not None and lines["line"] else 0
    out["getPhone"] = {"name": phone["name"], "model": phone["model"], "lines": count}

    # A line added, changed and removed, as an admin does; the partition it lives in too.
    partition = "PY-ZEEP-PT"
    pattern = "7%04d" % (os.getpid() % 10000)
    axl.addRoutePartition(routePartition={"name": partition, "description": "zeep session"})
    added = axl.addLine(line={"pattern": pattern, "routePartitionName": partition, "description": "zeep line", "usage": "Device"})
    out["addLine"] = dig(added, "return")
    axl.updateLine(pattern=pattern, routePartitionName=partition, description="zeep line changed")
    line = dig(axl.getLine(pattern=pattern, routePartitionName=partition), "return", "line")
    if line["description"] != "zeep line changed":
        fail("updateLine did not change the description: %r" % line["description"])
    axl.removeLine(pattern=pattern, routePartitionName=partition)
    axl.removeRoutePartition(name=partition)
    out["lineCycle"] = "ok"

    join = (
        "select d.name, n.dnorpattern from device d, devicenumplanmap m, numplan n "
        "where m.fkdevice = d.pkid and m.fknumplan = n.pkid and d.name like 'SEP%' order by d.name"
    )
    try:
        rows = axl.executeSQLQuery(sql=join)
        out["sqlJoin"] = True
    except Exception as e:  # the lab may not support joins yet: say so and read a plain select
        out["sqlJoin"] = "refused: %s" % str(e)[:200]
        rows = axl.executeSQLQuery(sql="select name from device where name like 'SEP%' order by name")
    found = dig(rows, "return", "row")
    out["sqlRows"] = len(found) if isinstance(found, list) else 0
    return out


def served_ris_wsdl(info, workdir):
    """The RisPort70 WSDL the node serves (`?wsdl`), when the real one is not at hand."""
    cucm = node(info, "cucm")
    s = requests.Session()
    s.trust_env = False
    r = s.get(cucm["urls"]["risWsdl"], verify=trust_file(info, cucm, workdir), timeout=60)
    r.raise_for_status()
    path = os.path.join(workdir, "RISService70.wsdl")
    with open(path, "wb") as f:
        f.write(r.content)
    return path


def ris_session(info, workdir, wsdl):
    cucm = node(info, "cucm")
    verify = trust_file(info, cucm, workdir)
    transport = Transport(session=session_for(cucm, "axl", verify), timeout=60, operation_timeout=120)
    client = Client(wsdl, settings=Settings(strict=True, xml_huge_tree=True), transport=transport)
    ris = client.create_service(RIS_BINDING, cucm["urls"]["ris"])
    answer = ris.selectCmDevice(
        StateInfo="",
        CmSelectionCriteria={
            "MaxReturnedDevices": 1000,
            "DeviceClass": "Phone",
            "Model": 255,
            "Status": "Any",
            "NodeName": "",
            "SelectBy": "Name",
            "SelectItems": {"item": [{"Item": "SEP*"}]},
            "Protocol": "Any",
            "DownloadStatus": "Any",
        },
    )
    result = answer["SelectCmDeviceResult"]
    devices = 0
    cm_nodes = result["CmNodes"]["item"] if result["CmNodes"] is not None else []
    for cm_node in cm_nodes or []:
        found = cm_node["CmDevices"]
        devices += len(found["item"] or []) if found is not None else 0
    return {"totalDevicesFound": result["TotalDevicesFound"], "devices": devices, "stateInfo": bool(answer["StateInfo"])}


def fingerprint(key):
    return "SHA256:" + base64.b64encode(hashlib.sha256(key.asbytes()).digest()).decode().rstrip("=")


class Shell:
    def __init__(self, chan):
        self.chan = chan
        self.buf = ""

    def read_until(self, pattern, timeout=30, pager=True):
        deadline = time.time() + timeout
        while time.time() < deadline:
            if re.search(pattern, self.buf):
                out, self.buf = self.buf, ""
                return out
            asked = PAGER_AT_END.search(self.buf) if pager else None
            if asked:
                # Space: the next page. The question and its erasure are dropped from the text.
                self.buf = self.buf[: asked.start()]
                self.chan.send(" ")
                continue
            if self.chan.recv_ready():
                self.buf += self.chan.recv(65536).decode("utf-8", "replace")
            else:
                time.sleep(0.02)
        fail("timed out waiting for %r; got %r" % (pattern, self.buf[-300:]))

    def run(self, command, timeout=30):
        self.chan.send(command + "\n")
        raw = self.read_until(r"\r?\nadmin:$", timeout)
        text = ANSI.sub("", raw).replace("\r", "")
        lines = text.split("\n")
        # The echoed command first, the prompt last.
        return "\n".join(l for l in lines[1:-1])


def cli_session(info):
    cucm = node(info, "cucm")
    cred = cucm["credentials"]["os"]
    expected = cucm["sshHostKeyFingerprint"]
    sock = socket.create_connection((cucm["host"], cucm["ports"]["ssh"]), timeout=30)
    t = paramiko.Transport(sock)
    try:
        t.start_client(timeout=30)
        seen = fingerprint(t.get_remote_server_key())
        if seen != expected:
            fail("host key %s is not the announced %s: refusing to log in" % (seen, expected))
        t.auth_interactive(cred["user"], lambda _title, _instr, prompts: [cred["password"] for _ in prompts])
        chan = t.open_session()
        chan.get_pty(term="vt100", width=132, height=24)
        chan.invoke_shell()
        shell = Shell(chan)
        shell.read_until(r"admin:$", timeout=60)
        out = {"hostKey": seen}
        out["version"] = re.search(r"Active Master Version: (\S+)", shell.run("show version active")).group(1)
        cluster = shell.run("show network cluster")
        out["clusterNodes"] = [l.split()[2] for l in cluster.split("\n") if re.match(r"^\d+\.\d+\.\d+\.\d+ ", l)]
        # Paged on a 24-row terminal: read through the pager, then compare with pagination off.
        paged = shell.run("utils service list")
        shell.run("set cli pagination off")
        whole = shell.run("utils service list")
        out["pagedServices"] = paged.count("[STARTED]") + paged.count("[STOPPED]")
        out["services"] = whole.count("[STARTED]") + whole.count("[STOPPED]")
        if PAGER in paged:
            fail("the pager question is left in the output")
        if out["pagedServices"] != out["services"]:
            fail("a paged read lost lines: %d of %d" % (out["pagedServices"], out["services"]))
        out["unknown"] = shell.run("show me the money")
        chan.send("quit\n")
        return out
    finally:
        t.close()


def main():
    info, workdir, rest = script_args(__doc__)
    axl_wsdl = rest[0] if len(rest) > 0 and rest[0] else None
    ris_wsdl = rest[1] if len(rest) > 1 and rest[1] else None
    results = {"axl": axl_session(info, workdir, axl_wsdl)}
    if not ris_wsdl:
        ris_wsdl = served_ris_wsdl(info, workdir)
    results["ris"] = ris_session(info, workdir, ris_wsdl)
    results["cli"] = cli_session(info)
    print(json.dumps(results))


if __name__ == "__main__":
    main()

"""calc.py: opens spreadsheets in LibreOffice Calc, headless, through its own UNO bridge
(Debian's libreoffice-calc-nogui and python3-uno), does to each what a learner or the test asks,
and prints every sheet's cells as JSON. Run by /usr/bin/python3 (the UNO module is Debian's);
only tests/node/sheet*.test.mjs use it.

Reads a job as JSON on stdin: {"files": [{"path", "recalculate": bool, "set": [{"sheet",
"cell", "value"}], "read": [sheet name, ...] (all when absent)}]}. For each file, in order:
loads it hidden, with LibreOffice's own settings (a fresh profile: Calc keeps the file's cached
numbers on load); sets each cell as typing a number would (Calc then recalculates what depends
on it); recalculates every formula when asked (calculateAll); then reads each sheet's used area:
numbers as doubles (JSON keeps all their bits), text as text. Prints {"files": [{"sheets":
{name: [[cell, ...], ...]}}], "version"}.
"""

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time

import uno
from com.sun.star.beans import PropertyValue
from com.sun.star.connection import NoConnectException


def prop(name, value):
    p = PropertyValue()
    p.Name = name
    p.Value = value
    return p


def connect(pipe, process):
    local = uno.getComponentContext()
    resolver = local.ServiceManager.createInstanceWithContext(
        "com.sun.star.bridge.UnoUrlResolver", local
    )
    deadline = time.monotonic() + 120
    while True:
        try:
            return resolver.resolve(f"uno:pipe,name={pipe};urp;StarOffice.ComponentContext")
        except NoConnectException:
            if process.poll() is not None:
                sys.exit(f"calc.py: soffice ended ({process.returncode}) before it listened")
            if time.monotonic() > deadline:
                sys.exit("calc.py: soffice did not listen within 120 s")
            time.sleep(0.2)


def read_sheet(sheet):
    cursor = sheet.createCursor()
    cursor.gotoEndOfUsedArea(False)
    address = cursor.getRangeAddress()
    area = sheet.getCellRangeByPosition(0, 0, address.EndColumn, address.EndRow)
    return [list(row) for row in area.getDataArray()]


def run(job, desktop):
    results = []
    for f in job["files"]:
        url = uno.systemPathToFileUrl(os.path.abspath(f["path"]))
        doc = desktop.loadComponentFromURL(url, "_blank", 0, (prop("Hidden", True),))
        if doc is None:
            sys.exit(f"calc.py: LibreOffice could not open {f['path']}")
        try:
            sheets = doc.getSheets()
            for s in f.get("set", []):
                sheets.getByName(s["sheet"]).getCellRangeByName(s["cell"]).setValue(s["value"])
            if f.get("recalculate"):
                doc.calculateAll()
            names = f.get("read") or list(sheets.getElementNames())
            results.append({"sheets": {n: read_sheet(sheets.getByName(n)) for n in names}})
        finally:
            doc.close(True)
    return results


def main():
    job = json.load(sys.stdin)
    profile = tempfile.mkdtemp(prefix="calc-profile-")
    pipe = f"attention_calc_{os.getpid()}"
    process = subprocess.Popen(
        [
            "soffice",
            f"-env:UserInstallation={uno.systemPathToFileUrl(profile)}",
            "--headless",
            "--invisible",
            "--norestore",
            "--nologo",
            "--nodefault",
            f"--accept=pipe,name={pipe};urp;",
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        ctx = connect(pipe, process)
        smgr = ctx.ServiceManager
        desktop = smgr.createInstanceWithContext("com.sun.star.frame.Desktop", ctx)
        provider = smgr.createInstanceWithContext(
            "com.sun.star.configuration.ConfigurationProvider", ctx
        )
        about = provider.createInstanceWithArguments(
            "com.sun.star.configuration.ConfigurationAccess",
            (prop("nodepath", "/org.openoffice.Setup/Product"),),
        )
        version = f"{about.getByName('ooName')} {about.getByName('ooSetupVersionAboutBox')}"
        files = run(job, desktop)
        try:
            desktop.terminate()
        except Exception:  # the bridge closes as soffice quits
            pass
        json.dump({"files": files, "version": version}, sys.stdout)
    finally:
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        shutil.rmtree(profile, ignore_errors=True)


main()

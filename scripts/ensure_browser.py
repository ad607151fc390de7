"""Make sure headless Chromium and its driver are here for the page's browser test.

make test runs this first. Where ``chromium`` or ``chromedriver`` is missing it
says so and what it is about to install, then installs Debian's ``chromium``
and ``chromium-driver`` with apt-get (as root, or through sudo without a
password; about 505 MB with their dependencies on a bare Debian 12); where it
cannot, it exits non-zero with the reason, so the run stops there instead of
skipping the browser test. Where both are present it installs and prints nothing.

Usage: python scripts/ensure_browser.py
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

PACKAGES = ("chromium", "chromium-driver")

#: What apt-get installed for them on a bare Debian 12 (116 packages, upgrades
#: included): said before installing, so nobody is surprised by the download.
INSTALLED_SIZE = "about 505 MB"


def missing() -> list[str]:
    """Return the browser programs not found on PATH."""
    return [name for name in ("chromium", "chromedriver") if shutil.which(name) is None]


def announcement(absent: list[str], prefix: list[str]) -> str:
    """Return the line said before installing: what is missing, what apt-get installs,
    as whom, how much, and why."""
    who = "through sudo" if prefix else "as root"
    return (
        f"ensure_browser: {', '.join(absent)} not found: installing Debian's "
        f"{' and '.join(PACKAGES)} with apt-get {who} ({INSTALLED_SIZE} with their "
        "dependencies) for the page's browser test"
    )


def main() -> int:
    """Install the browser where it is missing; return the exit status."""
    if not missing():
        return 0
    apt = shutil.which("apt-get")
    if apt is None:
        print(
            f"ensure_browser: {', '.join(missing())} not found and there is no apt-get: "
            f"install Chromium and its WebDriver ({' '.join(PACKAGES)} on Debian)",
            file=sys.stderr,
        )
        return 1
    prefix: list[str] = []
    if os.geteuid() != 0:
        if shutil.which("sudo") is None:
            print("ensure_browser: installing Chromium needs root or sudo", file=sys.stderr)
            return 1
        prefix = ["sudo", "-n"]
    print(announcement(missing(), prefix), flush=True)
    environment = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
    for command in ([apt, "update", "-q"], [apt, "install", "-y", "-q", *PACKAGES]):
        result = subprocess.run([*prefix, *command], env=environment)
        if result.returncode != 0:
            print(
                f"ensure_browser: {' '.join(command)} failed ({result.returncode})", file=sys.stderr
            )
            return 1
    if missing():
        print(
            f"ensure_browser: still missing after apt-get: {', '.join(missing())}", file=sys.stderr
        )
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())

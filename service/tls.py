"""The server's TLS files, checked before gRPC sees them.

gRPC reports an unreadable certificate or a key that does not match it only
as a failed bind ("cannot bind ...: gRPC refused it"), and a missing file
surfaced as a bare ``[Errno 2]``. :func:`tls_problem` loads the pair with the
standard library's ssl module, as a TLS server would, and says in one line
which file is wrong and how. Only the standard library is imported, so
guesswork-serve refuses bad files before it loads gRPC.
"""

from __future__ import annotations

import ssl
from pathlib import Path


def tls_problem(cert: str | None, key: str | None) -> str | None:
    """Return why ``cert`` and ``key`` cannot serve TLS, in one line; None if they can
    (or if neither is given: no TLS).

    Each must be given with the other, be a readable file, and hold a PEM
    certificate (chain) and its private key, unencrypted.
    """
    if not cert and not key:
        return None
    if not cert or not key:
        missing, given = ("--tls-cert", "--tls-key") if not cert else ("--tls-key", "--tls-cert")
        return f"{given} needs {missing} too: TLS takes a certificate and its private key"
    for option, path, marker in (
        ("--tls-cert", cert, b"-----BEGIN CERTIFICATE-----"),
        ("--tls-key", key, b"PRIVATE KEY-----"),
    ):
        try:
            data = Path(path).read_bytes()
        except FileNotFoundError:
            return f"{option} {path!r}: no such file"
        except IsADirectoryError:
            return f"{option} {path!r}: is a folder, not a PEM file"
        except OSError as error:
            return f"{option} {path!r}: cannot be read ({error.strerror})"
        if marker not in data:
            what = "a certificate" if option == "--tls-cert" else "a private key"
            return f"{option} {path!r}: not a PEM file with {what} (no {marker.decode()!r} line)"
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    try:
        # A password callback that refuses: an encrypted key fails at once
        # instead of prompting on the terminal.
        context.load_cert_chain(cert, key, password=lambda: b"")
    except ssl.SSLError as error:
        reason = error.reason or str(error)
        if "KEY_VALUES_MISMATCH" in reason.upper():
            return f"--tls-key {key!r} is not the private key of --tls-cert {cert!r}"
        return f"--tls-cert {cert!r} / --tls-key {key!r} cannot be loaded ({reason})"
    return None

"""The standalone policy file (``.gwp``): a sealed container of one core and its words.

A standalone file (``.gwp``, container version 2) is a 48-byte header and a msgpack body::

    0   8 bytes  magic b"GWPOLICY"
    8   uint16   container version (big-endian): 2 (1 is still read); the core has its own
    10  uint16   reserved, 0
    12  uint32   body length in bytes (big-endian)
    16  32 bytes SHA-256 of the body
    48  body     {"policy": bin(core), "words": {sha256: bin(each word + "\\n")},
                  "content_hash": lower-case hex SHA-256 of the core (version 2 only)}

The core inside is client.policy_format's; docs/policy-format.rst specifies
both for readers in any language.
"""

from __future__ import annotations

import hashlib
import struct
from pathlib import Path
from typing import Any

import msgpack

from .errors import (
    CorruptFileError,
    InconsistentPolicyError,
    MalformedPolicyError,
    NotAPolicyFileError,
    PolicyFormatError,
    UnsupportedVersionError,
)
from .policy_format import (
    MAX_POLICY_BYTES,
    ListRef,
    content_hash,
    need,
    unpack_untrusted,
)
from .text import version_refused

FILE_MAGIC = b"GWPOLICY"
#: The standalone file's container version (header and body), independent of the core's
#: format: 2 added the body's ``content_hash``.
FILE_FORMAT_VERSION = 2
#: Container versions this reader accepts.
READABLE_FILE_VERSIONS = (1, 2)
HEADER = struct.Struct(">8sHHI32s")


def encode_file(core: bytes, words: dict[str, bytes], version: int = FILE_FORMAT_VERSION) -> bytes:
    """Return a standalone policy file holding ``core`` and its word lists.

    ``version`` 2 (the default) carries the core's content hash; 1 is the
    older container, which readers still read (tests and conformance vectors
    write it).
    """
    body_map: dict[str, Any] = {"policy": core, "words": dict(sorted(words.items()))}
    if version >= 2:
        body_map["content_hash"] = content_hash(core)
    body: bytes = msgpack.packb(body_map, use_bin_type=True)
    digest = hashlib.sha256(body).digest()
    return HEADER.pack(FILE_MAGIC, version, 0, len(body), digest) + body


def decode_file(data: bytes, where: str) -> tuple[bytes, dict[str, bytes]]:
    """Return (core, {sha256: words bytes}) from the bytes of a policy file.

    Raises:
        NotAPolicyFileError: too short, or the wrong magic.
        UnsupportedVersionError: a container version this reader does not read.
        CorruptFileError: reserved bytes set, a length or checksum that does not match.
        MalformedPolicyError: a body that is not msgpack, or lacks a field.
        InconsistentPolicyError: the body's content hash is not the core's.
    """
    if len(data) < HEADER.size:
        raise NotAPolicyFileError(f"{where}: too short to be a policy file ({len(data)} bytes)")
    magic, version, reserved, length, digest = HEADER.unpack_from(data)
    if magic != FILE_MAGIC:
        raise NotAPolicyFileError(f"{where}: not a Guesswork policy file (wrong magic)")
    if version not in READABLE_FILE_VERSIONS:
        raise UnsupportedVersionError(
            f"{where}: "
            + version_refused(
                "policy file format", version, READABLE_FILE_VERSIONS, "export it again"
            )
        )
    if reserved != 0:
        raise CorruptFileError(f"{where}: reserved header bytes are not zero (the file is corrupt)")
    body = data[HEADER.size :]
    if len(body) != length:
        raise CorruptFileError(
            f"{where}: truncated or extended: header says {length} body bytes, found {len(body)}"
        )
    if hashlib.sha256(body).digest() != digest:
        raise CorruptFileError(f"{where}: checksum mismatch (the file is corrupt)")
    top = need(unpack_untrusted(body, where), dict, "file body", where)
    core = need(top.get("policy"), bytes, "policy", where)
    words = need(top.get("words"), dict, "words", where)
    for key, value in words.items():
        need(value, bytes, f"word list {key}", where)
    if version >= 2:
        stored = need(top.get("content_hash"), str, "content_hash", where)
        if stored != content_hash(core):
            raise InconsistentPolicyError(
                f"{where}: content hash mismatch: the body says {stored[:64]!r}, the policy's "
                f"SHA-256 is {content_hash(core)}"
            )
    return core, words


def read_file_bytes(path: Path) -> bytes:
    """Return the bytes of a policy file, refusing absurd sizes before reading.

    Raises:
        PolicyFormatError: missing or unreadable (the base class: not a fault
            of the bytes); MalformedPolicyError: larger than the limit.
    """
    try:
        size = path.stat().st_size
        if size > MAX_POLICY_BYTES + HEADER.size:
            raise MalformedPolicyError(f"{path}: {size} bytes is too large for a policy file")
        return path.read_bytes()
    except FileNotFoundError:
        raise PolicyFormatError(f"{path}: no such policy file") from None
    except IsADirectoryError:
        raise PolicyFormatError(f"{path}: is a directory, not a policy file") from None
    except OSError as error:
        raise PolicyFormatError(f"{path}: cannot read ({error.strerror})") from None


def decode_words(data: bytes, ref: ListRef, where: str) -> tuple[str, ...]:
    """Return the words of a stored list after checking them against ``ref``.

    Lists are UTF-8: A-Z lists are the ASCII they always were, and lists of
    other alphabets (client.letters) hold their letters in NFC.

    Raises:
        InconsistentPolicyError: the SHA-256 or the count is not the reference's.
        MalformedPolicyError: not UTF-8.
    """
    if hashlib.sha256(data).hexdigest() != ref.sha256:
        raise InconsistentPolicyError(f"{where}: word list {ref.name!r} fails its SHA-256")
    try:
        words = tuple(data.decode("utf-8").split("\n")[:-1]) if data else ()
    except UnicodeDecodeError:
        raise MalformedPolicyError(f"{where}: word list {ref.name!r} is not UTF-8") from None
    if len(words) != ref.count:
        raise InconsistentPolicyError(f"{where}: word list {ref.name!r} has the wrong word count")
    return words


def encode_words(words: tuple[str, ...] | list[str]) -> bytes:
    """Return the stored form of a word list, UTF-8 (its SHA-256 is the list's identity)."""
    return "".join(f"{word}\n" for word in words).encode("utf-8")

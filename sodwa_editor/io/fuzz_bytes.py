"""Byte mutations of a fuzz case (:mod:`.fuzz`): the written document with a bit
flipped, a byte set, JSON punctuation inserted, a stretch deleted or repeated, the
text cut short, bytes that are not UTF-8, a BOM, or the whole re-encoded as UTF-16.
Seeded by ``rng``.
"""

from __future__ import annotations

import random


def mutate_bytes(rng: random.Random, data: bytes) -> tuple[bytes, str]:
    """``data`` with one byte mutation, and its label (``bytes-flip`` ...)."""
    b = bytearray(data)
    how = rng.choice(("flip", "set", "insert", "delete", "truncate", "repeat",
                      "not-utf8", "bom", "utf16"))
    i = rng.randrange(len(b) + 1)
    if how == "flip" and b:
        i = min(i, len(b) - 1)
        b[i] ^= 1 << rng.randrange(8)
    elif how == "set" and b:
        b[min(i, len(b) - 1)] = rng.randrange(256)
    elif how == "insert":
        b[i:i] = rng.choice((b"{", b"}", b"[", b"]", b",", b'"', b"\\", b":", b"-",
                             b"0", b"\x00", b"\\ud800", b"9" * 30))
    elif how == "delete":
        del b[i:i + rng.randrange(1, 64)]
    elif how == "truncate":
        del b[i:]
    elif how == "repeat":
        j = min(len(b), i + rng.randrange(1, 200))
        b[j:j] = b[i:j]
    elif how == "not-utf8":
        b[i:i] = rng.choice((b"\xff", b"\xc0\x80", b"\xed\xa0\x80", b"\xe2\x82"))
    elif how == "bom":
        b[0:0] = b"\xef\xbb\xbf"
    elif how == "utf16":
        return data.decode("utf-8", "replace").encode("utf-16"), "bytes-utf16"
    return bytes(b), f"bytes-{how}"

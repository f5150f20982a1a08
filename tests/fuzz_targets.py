"""Misbehaving fuzz checks for the tests of the fuzz runner (tests/test_fuzz.py):
the input names what the check does, so one worker meets every failure."""

from __future__ import annotations

import os
import signal
import time


def misbehave(data: bytes, workdir: str) -> dict[str, str]:
    if data == b"hang":
        time.sleep(600)
    elif data == b"crash":
        os.kill(os.getpid(), signal.SIGSEGV)
    elif data == b"hog":
        bytearray(3 * 2**30)  # over the 2 GiB address-space limit
    elif data == b"raise":
        raise RuntimeError("the check itself failed")
    return {"outcome": "ok", "stage": "", "kind": "", "detail": data.decode()}

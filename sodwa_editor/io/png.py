"""A minimal PNG writer (RGBA, 8 bits per channel) with numpy and zlib, so that
the io package can write the Tiled tileset image without Qt or Pillow.

The same pixels always give the same bytes (no time stamp, fixed compression).

>>> data = encode_png(np.zeros((2, 3, 4), np.uint8))
>>> data[:8] == PNG_SIGNATURE, len(data)
(True, 68)
"""

from __future__ import annotations

import struct
import zlib

import numpy as np

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def encode_png(rgba: np.ndarray) -> bytes:
    """PNG bytes of an ``(height, width, 4)`` uint8 RGBA image."""
    if rgba.ndim != 3 or rgba.shape[2] != 4 or rgba.dtype != np.uint8:
        raise ValueError(f"expected an (H, W, 4) uint8 image, got {rgba.shape} {rgba.dtype}")
    h, w = rgba.shape[:2]
    if not (0 < w < 2**31 and 0 < h < 2**31):
        raise ValueError(f"image size {w}x{h} cannot be a PNG")
    rows = np.zeros((h, 1 + 4 * w), np.uint8)  # filter type 0 (None) before each row
    rows[:, 1:] = rgba.reshape(h, 4 * w)
    header = struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0)  # 8-bit RGBA, no interlace
    return (PNG_SIGNATURE + _chunk(b"IHDR", header)
            + _chunk(b"IDAT", zlib.compress(rows.tobytes(), 9)) + _chunk(b"IEND", b""))


def _chunk(kind: bytes, data: bytes) -> bytes:
    crc = zlib.crc32(kind + data) & 0xFFFFFFFF
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", crc)

"""Draw the app icons as PNG files with nothing but the standard library (zlib).

    python scripts/make_icons.py     # writes static/icons/*.png and favicon.ico (committed)

Two playing cards on card-table green, a red heart on the front one. "any" icons have
rounded corners; maskable ones fill the square and keep the cards in the central safe zone.
"""
from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path

OUT = Path(__file__).resolve().parent.parent / "static" / "icons"
GREEN = (31, 111, 74)
CREAM = (236, 229, 210)
WHITE = (255, 255, 255)
RED = (200, 16, 46)
EDGE = (20, 60, 42)
SAMPLES = 3  # supersampling per axis, for smooth edges


def rounded_rect(x: float, y: float, half_w: float, half_h: float, radius: float) -> bool:
    dx, dy = max(abs(x) - (half_w - radius), 0.0), max(abs(y) - (half_h - radius), 0.0)
    return dx * dx + dy * dy <= radius * radius


def rotated(x: float, y: float, cx: float, cy: float, degrees: float) -> tuple[float, float]:
    a = math.radians(degrees)
    x, y = x - cx, y - cy
    return x * math.cos(a) + y * math.sin(a), -x * math.sin(a) + y * math.cos(a)


def heart(x: float, y: float, size: float) -> bool:
    # The classic implicit heart curve, y pointing up.
    u, v = x / size, -y / size + 0.1
    return (u * u + v * v - 1) ** 3 - u * u * v ** 3 <= 0


def colour_at(x: float, y: float, maskable: bool) -> tuple[int, int, int, int] | None:
    """The colour at (x, y) in a unit square (0..1), or None for transparent."""
    if not maskable and not rounded_rect(x - 0.5, y - 0.5, 0.5, 0.5, 0.2):
        return None
    scale = 0.72 if maskable else 1.0  # maskable: everything inside the 80 % safe circle
    sx, sy = (x - 0.5) / scale, (y - 0.5) / scale
    # Front card, tilted right, with its border and the heart.
    fx, fy = rotated(sx, sy, 0.07, 0.02, 10)
    if rounded_rect(fx, fy, 0.2, 0.29, 0.045):
        if not rounded_rect(fx, fy, 0.19, 0.28, 0.04):
            return (*EDGE, 255)
        return (*RED, 255) if heart(fx, fy, 0.13) else (*WHITE, 255)
    # Back card, tilted left.
    bx, by = rotated(sx, sy, -0.09, -0.02, -12)
    if rounded_rect(bx, by, 0.2, 0.29, 0.045):
        return (*EDGE, 255) if not rounded_rect(bx, by, 0.19, 0.28, 0.04) else (*CREAM, 255)
    return (*GREEN, 255)


def render(size: int, maskable: bool) -> bytes:
    rows = []
    for py in range(size):
        row = bytearray([0])  # PNG filter type 0 for each row
        for px in range(size):
            r = g = b = a = 0
            for sy in range(SAMPLES):
                for sx in range(SAMPLES):
                    c = colour_at((px + (sx + 0.5) / SAMPLES) / size, (py + (sy + 0.5) / SAMPLES) / size, maskable)
                    if c:
                        r, g, b, a = r + c[0] * c[3], g + c[1] * c[3], b + c[2] * c[3], a + c[3]
            n = SAMPLES * SAMPLES
            row += bytes((r // a, g // a, b // a, a // n) if a else (0, 0, 0, 0))
        rows.append(bytes(row))
    return png(size, size, b"".join(rows))


def png(width: int, height: int, raw: bytes) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", width, height, 8, 6, 0, 0, 0)  # 8-bit RGBA
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def ico(images: list[tuple[int, bytes]]) -> bytes:
    """An .ico file holding PNG images (every browser reads those), as (size, png) pairs."""
    header = struct.pack("<HHH", 0, 1, len(images))
    offset = len(header) + 16 * len(images)
    entries, blobs = b"", b""
    for size, data in images:
        entries += struct.pack("<BBBBHHII", size % 256, size % 256, 0, 0, 1, 32, len(data), offset + len(blobs))
        blobs += data
    return header + entries + blobs


def main() -> None:
    OUT.mkdir(parents=True, exist_ok=True)
    for name, size, maskable in (
        ("icon-192.png", 192, False),
        ("icon-512.png", 512, False),
        ("maskable-192.png", 192, True),
        ("maskable-512.png", 512, True),
        ("apple-touch-icon.png", 180, True),  # iOS rounds the corners itself
    ):
        (OUT / name).write_bytes(render(size, maskable))
        print("wrote", OUT / name)
    # /favicon.ico, for browsers and tools that ask for it without reading the page.
    (OUT / "favicon.ico").write_bytes(ico([(size, render(size, False)) for size in (16, 32, 48)]))
    print("wrote", OUT / "favicon.ico")


if __name__ == "__main__":
    main()

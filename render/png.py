"""PNG encoding of the images: small files, fast.

The images are flat colours plus anti-aliased edges, which a 256-colour palette holds
with no visible loss. Measured on a 1400 px mid-game board (see ``render/bench.py``):

=====================================  =========  =======
encoding                               time       size
=====================================  =========  =======
RGB, zlib level 1                      ~55 ms     ~320 KB
RGB, zlib level 6                      ~110 ms    ~285 KB
palette (fast octree) + zlib level 6   ~55 ms     ~90 KB
palette (fast octree) + zlib level 9   ~155 ms    ~84 KB
=====================================  =========  =======

So the palette with level 6 is used: as fast as the quickest RGB file and a third of
its size, which matters to players on a phone.
"""

from __future__ import annotations

from io import BytesIO

from PIL import Image

COMPRESS_LEVEL = 6
PALETTE_COLOURS = 256


def encode_png(
    image: Image.Image, *, palette: bool = True, compress_level: int = COMPRESS_LEVEL
) -> bytes:
    """``image`` as PNG bytes; by default reduced to a 256-colour palette first."""
    if palette and image.mode != "P":
        image = image.quantize(
            colors=PALETTE_COLOURS,
            method=Image.Quantize.FASTOCTREE,
            dither=Image.Dither.NONE,
        )
    buffer = BytesIO()
    image.save(buffer, format="PNG", optimize=False, compress_level=compress_level)
    return buffer.getvalue()

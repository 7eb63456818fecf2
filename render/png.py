"""PNG encoding of the images: small files, fast, and exactly the pixels that were drawn.

Two steps, kept apart:

- :func:`limit_colours` is the last step of *drawing* a board: it turns the picture into
  a palette image of at most 256 colours. Every colour that covers many pixels (the flat
  fills: squares, group bars, player colours, text) is kept exactly; the rare in-between
  colours of anti-aliased edges (about 3 % of the pixels) become their nearest kept
  colour. ``draw_board`` and ``draw_compact`` return this picture.
- :func:`encode_png` stores an image *losslessly* whenever it can: an image of at most
  256 colours as a palette PNG of exactly those colours (under half the size of the same
  pixels as RGB), anything else as it is. Decoding the PNG gives back the very pixels.

Every Discord client (desktop, web, Android, iOS) shows palette and RGB PNGs inline, like
any PNG; no other format is used.

Measured on the 1400 px board of ``render/bench.py`` (turn 101, 4 players; median ms on
the development machine, 2 shared cores), and over a whole 242-turn game of simple
players, one board per turn:

============================================  ============  ========  ==================
encoding                                      ms (encode)   board     pixels as drawn
============================================  ============  ========  ==================
before: fast octree to 256 colours, zlib 6    24            74 KB     94 % changed (<=48)
lossless RGB of the full-colour picture       69            154 KB    exact
limit_colours + palette PNG, zlib 6           12 + 11       70 KB     exact
limit_colours + palette PNG, zlib 8 (used)    12 + 28       65 KB     exact
limit_colours + palette PNG, zlib 9           12 + 58       64 KB     exact
============================================  ============  ========  ==================

Per game: 18.8 MB before, 16.4 MB now (6 players, 228 turns: 19.3 MB, 16.6 MB).
``optimize=True`` (zlib 9 and one more filter) gives level 9's size at level 9's time.
Levels 6 and 8 differ by 6 % in size and 17 ms per board; the board is drawn on demand
and the turn's picture (800 px) costs 9 + 9 ms at level 8.
"""

from __future__ import annotations

from io import BytesIO
from operator import itemgetter
from typing import cast

from PIL import Image

COMPRESS_LEVEL = 8
PALETTE_COLOURS = 256
#: How many palette places go to the most used colours, kept exactly; the rest stand in
#: for the rare colours of anti-aliased edges, chosen by a median cut over them.
FREQUENT_COLOURS = 192

_RGB = tuple[int, int, int]
_RGBA = tuple[int, int, int, int]


# Pillow types ``getcolors``, ``get_flattened_data`` and ``getpalette`` for every image
# mode at once (a pixel is a tuple of bands or a single number); the helpers below say
# what the one mode each call here is made on gives, so the rest is checked as such.


def _rgb_counts(image: Image.Image, maxcolors: int) -> list[tuple[int, _RGB]] | None:
    """``image.getcolors(maxcolors)`` of an "RGB" image: each colour is an RGB triple.

    Only called on "RGB" images (the callers convert or check the mode first).
    """
    return cast("list[tuple[int, _RGB]] | None", image.getcolors(maxcolors))


def _rgba_counts(image: Image.Image, maxcolors: int) -> list[tuple[int, _RGBA]] | None:
    """``image.getcolors(maxcolors)`` of an "RGBA" image: each colour has four bands.

    Only called on "RGBA" images (:func:`_indexed` checks the mode first).
    """
    return cast("list[tuple[int, _RGBA]] | None", image.getcolors(maxcolors))


def _palette_entries(image: Image.Image) -> list[_RGB]:
    """The palette of a "P" image as RGB triples (``getpalette`` gives them flat)."""
    flat = image.getpalette() or []
    # ``getpalette()`` is in "RGB" (its default raw mode): three values per entry.
    return cast("list[_RGB]", [tuple(flat[i : i + 3]) for i in range(0, len(flat), 3)])


def _canonical(colours: list[_RGB]) -> list[_RGB]:
    """``colours`` in the one order every palette here uses: dark to light.

    One order matters for exactness: Pillow breaks ties between equally near entries by
    their order, so a palette that maps each of its colours to itself keeps doing so for
    any subset *in the same order* (an image that uses only some of the colours).
    """
    return sorted(set(colours), key=lambda c: (2 * c[0] + 5 * c[1] + c[2], c))


def _palette_image(colours: list[_RGB]) -> Image.Image:
    """A 1 x 1 palette image whose palette is exactly ``colours`` (for ``quantize``)."""
    image = Image.new("P", (1, 1))
    image.putpalette([v for colour in colours for v in colour])
    return image


def _mapped(palette: list[_RGB]) -> list[int]:
    """Where Pillow's palette mapping sends each colour of ``palette`` (as its index).

    Pillow maps through a cache of 4 x 4 x 4 cells, so a colour may land on a neighbour
    of its own entry; a palette serves for exact conversion only if each colour maps to
    itself.
    """
    strip = Image.new("RGB", (len(palette), 1))
    strip.putdata(palette)
    quantized = strip.quantize(palette=_palette_image(palette), dither=Image.Dither.NONE)
    # A "P" image has one band: each pixel is its palette index, an int.
    return list(cast("tuple[int, ...]", quantized.get_flattened_data()))


def _settle(colours: list[_RGB]) -> list[_RGB]:
    """``colours`` (most important first) less those that Pillow would map elsewhere.

    Of two colours that collide, the less important goes; repeated until every colour
    left maps to itself in the canonical palette order.
    """
    while True:
        rank = {colour: k for k, colour in enumerate(colours)}
        palette = _canonical(colours)
        drop = {
            max(rank[palette[i]], rank[palette[j]])
            for i, j in enumerate(_mapped(palette))
            if i != j
        }
        if not drop:
            return colours
        colours = [c for k, c in enumerate(colours) if k not in drop]


def _choose(counts: list[tuple[int, _RGB]], total: int) -> list[_RGB]:
    """At most ``total`` palette colours for a picture with these colour counts."""
    ordered = [colour for _, colour in sorted(counts, key=itemgetter(0), reverse=True)]
    frequent = min(FREQUENT_COLOURS, total)
    # A few spare candidates: settling drops near-duplicates (anti-aliasing next to a
    # flat colour); any prefix of a settled list is settled too.
    taken = frequent + frequent // 4
    chosen = _settle(ordered[:taken])[:frequent]
    rare = ordered[taken:]
    room = total - len(chosen)
    if rare and room > 0:
        strip = Image.new("RGB", (len(rare), 1))
        strip.putdata(rare)
        cut = strip.quantize(min(room, len(rare)), method=Image.Quantize.MEDIANCUT)
        known = set(chosen)
        stand_ins = _palette_entries(cut)
        chosen = _settle(chosen + [c for c in stand_ins if c not in known][:room])
    return chosen


def limit_colours(image: Image.Image, colours: int = PALETTE_COLOURS) -> Image.Image:
    """``image`` as a palette ("P") image of at most ``colours`` colours.

    An image with no more colours is converted exactly. Otherwise the most used colours
    (up to :data:`FREQUENT_COLOURS`) are kept exactly and every other pixel becomes the
    nearest of them or of a few stand-ins for the rare colours (a median cut over those):
    the flat colours of the drawing stay exact, only anti-aliased edges shift a little.
    """
    rgb = image if image.mode == "RGB" else image.convert("RGB")
    counts = _rgb_counts(rgb, colours)
    if counts is not None:
        exact = _exact_palette(rgb, [colour for _, colour in counts])
        if exact is not None:
            return exact
    else:
        counts = _rgb_counts(rgb, 1 << 16) or _rgb_counts(rgb, 1 << 24) or []
    palette = _canonical(_choose(counts, colours))
    return rgb.quantize(palette=_palette_image(palette), dither=Image.Dither.NONE)


def _exact_palette(rgb: Image.Image, colours: list[_RGB]) -> Image.Image | None:
    """``rgb`` (of exactly these ``colours``) as a palette image with the same pixels."""
    colours = _canonical(colours)
    if _mapped(colours) == list(range(len(colours))):
        return rgb.quantize(palette=_palette_image(colours), dither=Image.Dither.NONE)
    # Near-identical colours share a cache cell. Pillow's quantizers keep every colour of
    # an image that has no more than they may use, the maximum-coverage one fastest;
    # checked all the same, as the cache was.
    for method in (Image.Quantize.MAXCOVERAGE, Image.Quantize.MEDIANCUT):
        indexed = rgb.quantize(len(colours), method=method)
        if indexed.convert("RGB").tobytes() == rgb.tobytes():
            return indexed
    return None


def encode_png(
    image: Image.Image, *, palette: bool = True, compress_level: int = COMPRESS_LEVEL
) -> bytes:
    """``image`` as PNG bytes, as small as a lossless PNG can be made quickly.

    A palette image is stored as it is; an image of at most 256 colours as a palette PNG
    of exactly those colours (also with transparency); an RGB image of more colours,
    with ``palette`` (the default), first through :func:`limit_colours` like the boards;
    anything else losslessly as it is (RGB, RGBA, ...). Decoding gives back the pixels
    of ``image`` whenever it has at most 256 colours, is not RGB, or ``palette`` is false.
    """
    if image.mode == "RGBA" and image.getchannel("A").getextrema() == (255, 255):
        image = image.convert("RGB")  # opaque: the alpha channel says nothing
    out = _indexed(image) if image.mode != "P" else image
    if out is None:
        # Transparency, 16-bit grey and the like are stored as they are.
        out = limit_colours(image) if palette and image.mode == "RGB" else image
    buffer = BytesIO()
    out.save(buffer, format="PNG", optimize=False, compress_level=compress_level)
    return buffer.getvalue()


def _indexed(image: Image.Image) -> Image.Image | None:
    """``image`` as an exact palette image if it has at most 256 colours, else ``None``."""
    if image.mode in ("1", "L"):
        return image  # already small and exact
    if image.mode == "RGBA":
        return _indexed_with_alpha(image)
    if image.mode != "RGB":
        return None
    counts = _rgb_counts(image, PALETTE_COLOURS)
    if counts is None:
        return None
    return _exact_palette(image, [colour for _, colour in counts])


def _indexed_with_alpha(image: Image.Image) -> Image.Image | None:
    """An RGBA image of at most 256 colours as a palette image with per-entry alpha.

    Only when no colour appears with two alphas (the RGB part then tells the entry);
    otherwise ``None`` and the image is stored as RGBA.
    """
    counts = _rgba_counts(image, PALETTE_COLOURS)
    if counts is None:
        return None
    rgba = [colour for _, colour in counts]
    rgb = [colour[:3] for colour in rgba]
    if len(set(rgb)) != len(rgb):
        return None
    indexed = _exact_palette(image.convert("RGB"), rgb)
    if indexed is None:
        return None
    # The palette may have been reordered (median cut): look each entry's alpha up.
    alpha_of = {colour[:3]: colour[3] for colour in rgba}
    entries = _palette_entries(indexed)
    indexed.info["transparency"] = bytes(alpha_of.get(entry, 255) for entry in entries)
    return indexed

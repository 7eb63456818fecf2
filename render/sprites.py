"""Small anti-aliased pictures (tokens, houses, dice, icons), drawn once and cached.

Pillow's shapes have no anti-aliasing, so each sprite is drawn at four times its size
and scaled down (each pixel the mean of its 16 samples); the result is cached per colour
and size, so a turn's render only pastes ready-made RGBA images.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from functools import lru_cache

from PIL import Image, ImageDraw

from render.assets import RGB, font
from render.badges import initial_colour
from render.text import ellipsize

SS = 4  # supersampling factor

#: The palette key of each square pictogram's colour (the same on every picture).
ICON_COLOURS = {
    "railroad": "icon_rail",
    "power": "icon_power",
    "water": "icon_water",
    "chance": "icon_chance",
    "community": "icon_community",
    "tax": "icon_tax",
    "go": "go_arrow",
    "parking": "icon_parking",
    "police": "icon_police",
}


def _supersampled(
    width: int, height: int, paint: Callable[[ImageDraw.ImageDraw, int, int], None]
) -> Image.Image:
    """An RGBA sprite of ``width`` x ``height`` painted by ``paint(draw, W, H)`` at 4x."""
    big = Image.new("RGBA", (width * SS, height * SS), (0, 0, 0, 0))
    paint(ImageDraw.Draw(big), width * SS, height * SS)
    # A box filter: each pixel the exact mean of its 4 x 4 samples. (Lanczos sharpened a
    # little but rang: a halo of near-duplicate colours round every edge, which cost
    # about 5 % of a board's PNG.)
    return big.reduce(SS)


def contrast_text(colour: RGB) -> RGB:
    """Black or white, whichever reads better on ``colour``."""
    r, g, b = (c / 255 for c in colour)
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return (20, 22, 24) if luminance > 0.5 else (255, 255, 255)


@lru_cache(maxsize=256)
def token(colour: RGB, initials: str, diameter: int, halo: RGB | None = None) -> Image.Image:
    """A player's token: a coloured disc with white rim, dark edge and initials.

    With ``halo`` the token gets a glowing ring (whose turn it is). The sprite is a bit
    larger than ``diameter`` for the drop shadow and halo; paste it centred.
    """
    extra = max(2, diameter // 6) if halo else max(1, diameter // 12)
    side = diameter + 2 * extra

    def paint(draw: ImageDraw.ImageDraw, w: int, h: int) -> None:
        e = extra * SS
        d = diameter * SS
        if halo:
            draw.ellipse((0, 0, w - 1, h - 1), fill=(*halo, 235))
        shadow = max(SS, d // 18)
        draw.ellipse((e + shadow, e + shadow, e + d + shadow, e + d + shadow), fill=(0, 0, 0, 90))
        draw.ellipse((e, e, e + d, e + d), fill=(25, 28, 30, 255))
        rim = max(SS, d // 22)
        draw.ellipse((e + rim, e + rim, e + d - rim, e + d - rim), fill=(255, 255, 255, 255))
        inner = rim + max(SS, d // 12)
        draw.ellipse((e + inner, e + inner, e + d - inner, e + d - inner), fill=(*colour, 255))
        size = round(d * (0.5 if len(initials) <= 1 else 0.4))
        f = font("bold", size)
        text = ellipsize(initials, f, d - 2 * inner)
        draw.text(
            (e + d / 2, e + d / 2), text, font=f, fill=(*contrast_text(colour), 255), anchor="mm"
        )

    return _supersampled(side, side, paint)


#: Length of a pin's point beyond its head, as a share of the head's diameter.
PIN_TAIL = 0.3
_POINTS = {"down": (0, 1), "up": (0, -1), "left": (-1, 0), "right": (1, 0)}


def pin_size(diameter: int, halo: bool = False) -> tuple[int, int, int]:
    """Width and height of a downward :func:`pin` sprite, and the margin around its head."""
    extra = max(2, diameter // 6) if halo else max(1, diameter // 12)
    side = diameter + 2 * extra
    return side, side + round(diameter * PIN_TAIL), extra


@lru_cache(maxsize=256)
def pin(
    colour: RGB,
    initials: str,
    diameter: int,
    halo: RGB | None = None,
    point: str = "down",
    edge: RGB = (25, 28, 30),
) -> Image.Image:
    """A player's piece on the board: the token's head on a point, like a map pin.

    The point tells a piece (where a player stands) from the flat badge that marks whose
    lot a square is. ``point`` is where it points ("down", "up", "left", "right"); the
    head stays upright. ``edge`` colours the outline and the point: dark on light images,
    light on dark ones (``Palette["badge_ring"]``), so that the point always shows.
    Paste it with :func:`paste_pin`, which places the head.
    """
    side, _, extra = pin_size(diameter, halo is not None)
    tail = round(diameter * PIN_TAIL)
    dx, dy = _POINTS[point]
    width, height = side + abs(dx) * tail, side + abs(dy) * tail
    # The head's corner: shifted by the tail when the point is up or to the left.
    hx, hy = (tail if dx < 0 else 0), (tail if dy < 0 else 0)

    def paint(draw: ImageDraw.ImageDraw, w: int, h: int) -> None:
        e = extra * SS
        d = diameter * SS
        ox, oy = hx * SS + e, hy * SS + e
        cx, cy = ox + d / 2, oy + d / 2
        r = d / 2
        if halo:
            draw.ellipse(
                (hx * SS, hy * SS, hx * SS + side * SS - 1, hy * SS + side * SS - 1),
                fill=(*halo, 235),
            )
        ink = (*edge, 255)
        # The point: two tangents from the tip to the head.
        reach = r + e + tail * SS - SS
        tip = (cx + dx * reach, cy + dy * reach)
        if reach > r:
            a = math.acos(r / reach)
            ux, uy = dx, dy  # unit vector towards the tip
            px, py = -uy, ux  # perpendicular
            base = r * math.cos(a)
            half = r * math.sin(a)
            left = (cx + ux * base + px * half, cy + uy * base + py * half)
            right = (cx + ux * base - px * half, cy + uy * base - py * half)
            draw.polygon([left, tip, right], fill=ink)
        draw.ellipse((ox, oy, ox + d, oy + d), fill=ink)
        rim = max(SS, d // 22)
        draw.ellipse((ox + rim, oy + rim, ox + d - rim, oy + d - rim), fill=(255, 255, 255, 255))
        inner = rim + max(SS, d // 12)
        draw.ellipse((ox + inner, oy + inner, ox + d - inner, oy + d - inner), fill=(*colour, 255))
        size = round(d * (0.5 if len(initials) <= 1 else 0.4))
        f = font("bold", size)
        text = ellipsize(initials, f, d - 2 * inner)
        draw.text((cx, cy), text, font=f, fill=(*initial_colour(colour), 255), anchor="mm")

    sprite = _supersampled(width, height, paint)
    sprite.info["head"] = (hx + side / 2, hy + side / 2)
    return sprite


def paste_pin(image: Image.Image, sprite: Image.Image, head: tuple[float, float]) -> None:
    """Paste a :func:`pin` sprite so that the centre of its head lies on ``head``."""
    hx, hy = sprite.info.get("head", (sprite.width / 2, sprite.width / 2))
    image.paste(sprite, (round(head[0] - hx), round(head[1] - hy)), sprite)


@lru_cache(maxsize=64)
def house(colour: RGB, outline: RGB, size: int) -> Image.Image:
    """A small house (walls and roof) with a light halo so it shows on any bar colour."""

    def paint(draw: ImageDraw.ImageDraw, w: int, h: int) -> None:
        m = max(SS, w // 10)
        roof = round(h * 0.42)
        shape = [(m, roof), (w / 2, m), (w - m, roof), (w - m, h - m), (m, h - m)]
        draw.polygon(shape, fill=(255, 255, 255, 230))
        inset = max(SS, w // 8)
        inner = [
            (inset, roof + inset // 3),
            (w / 2, inset + inset // 2),
            (w - inset, roof + inset // 3),
            (w - inset, h - inset),
            (inset, h - inset),
        ]
        draw.polygon(inner, fill=(*colour, 255), outline=(*outline, 255), width=max(1, SS))

    return _supersampled(size, size, paint)


@lru_cache(maxsize=64)
def hotel(colour: RGB, outline: RGB, size: int) -> Image.Image:
    """A hotel: a long red building, wider than a house, with a flat roof line."""
    width = round(size * 1.6)

    def paint(draw: ImageDraw.ImageDraw, w: int, h: int) -> None:
        m = max(SS, h // 10)
        roof = round(h * 0.3)
        halo = [(m, roof), (w * 0.22, m), (w * 0.78, m), (w - m, roof), (w - m, h - m), (m, h - m)]
        draw.polygon(halo, fill=(255, 255, 255, 230))
        i = max(SS, h // 8)
        inner = [
            (i, roof + i // 3),
            (w * 0.22 + i // 2, i + i // 2),
            (w * 0.78 - i // 2, i + i // 2),
            (w - i, roof + i // 3),
            (w - i, h - i),
            (i, h - i),
        ]
        draw.polygon(inner, fill=(*colour, 255), outline=(*outline, 255), width=max(1, SS))
        door_w = w * 0.12
        draw.rectangle(
            (w / 2 - door_w / 2, h * 0.62, w / 2 + door_w / 2, h - i), fill=(255, 255, 255, 200)
        )

    return _supersampled(width, size, paint)


_PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.27, 0.27), (0.73, 0.73)],
    3: [(0.27, 0.27), (0.5, 0.5), (0.73, 0.73)],
    4: [(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)],
    5: [(0.27, 0.27), (0.73, 0.27), (0.5, 0.5), (0.27, 0.73), (0.73, 0.73)],
    6: [(0.27, 0.25), (0.73, 0.25), (0.27, 0.5), (0.73, 0.5), (0.27, 0.75), (0.73, 0.75)],
}


@lru_cache(maxsize=64)
def die(value: int, size: int, face: RGB, pip: RGB, edge: RGB) -> Image.Image:
    """One die showing ``value`` (1-6) as pips."""

    def paint(draw: ImageDraw.ImageDraw, w: int, h: int) -> None:
        r = w // 6
        draw.rounded_rectangle(
            (SS, SS, w - SS, h - SS), r, fill=(*face, 255), outline=(*edge, 255), width=2 * SS
        )
        pr = w * 0.085
        for px, py in _PIPS.get(value, []):
            draw.ellipse((px * w - pr, py * h - pr, px * w + pr, py * h + pr), fill=(*pip, 255))

    return _supersampled(size, size, paint)


# A lightning bolt, in fractions of its square.
_BOLT = (
    (0.58, 0.02),
    (0.22, 0.55),
    (0.47, 0.55),
    (0.36, 0.98),
    (0.80, 0.40),
    (0.53, 0.40),
    (0.70, 0.02),
)


@lru_cache(maxsize=128)
def icon(kind: str, width: int, height: int, colour: RGB, ink: RGB, text: str = "") -> Image.Image:
    """A simple pictogram of ``kind`` fitted in ``width`` x ``height``.

    Kinds: ``railroad``, ``power``, ``water``, ``chance``, ``community``, ``tax`` (a coin
    showing ``text``), ``parking``, ``police`` (an arrow towards the jail) and ``go`` (the
    direction of play). ``colour`` fills the shape, ``ink`` draws its edges.
    """
    side = min(width, height)

    def paint(draw: ImageDraw.ImageDraw, w: int, h: int) -> None:
        s = side * SS
        x0, y0 = (w - s) / 2, (h - s) / 2
        lw = max(SS, s // 16)
        fill = (*colour, 255)
        edge = (*ink, 255)
        if kind == "railroad":
            # A locomotive seen from the side: boiler, cab, chimney, wheels.
            base = y0 + s * 0.72
            draw.rectangle((x0 + s * 0.08, y0 + s * 0.38, x0 + s * 0.66, base), fill=fill)
            draw.rectangle((x0 + s * 0.60, y0 + s * 0.16, x0 + s * 0.92, base), fill=fill)
            draw.rectangle(
                (x0 + s * 0.66, y0 + s * 0.24, x0 + s * 0.84, y0 + s * 0.42),
                fill=(255, 255, 255, 255),
            )
            draw.rectangle((x0 + s * 0.16, y0 + s * 0.18, x0 + s * 0.28, y0 + s * 0.38), fill=fill)
            draw.rectangle((x0 + s * 0.10, y0 + s * 0.12, x0 + s * 0.34, y0 + s * 0.20), fill=fill)
            r = s * 0.11
            for cx in (0.22, 0.46, 0.76):
                c = (x0 + s * cx, base + r * 0.6)
                draw.ellipse(
                    (c[0] - r, c[1] - r, c[0] + r, c[1] + r),
                    fill=fill,
                    outline=(255, 255, 255, 255),
                    width=lw // 2 or 1,
                )
            draw.line((x0, y0 + s * 0.97, x0 + s, y0 + s * 0.97), fill=fill, width=lw)
        elif kind == "power":
            bolt = [(x0 + px * s, y0 + py * s) for px, py in _BOLT]
            draw.polygon(bolt, fill=fill, outline=edge, width=lw // 2 or 1)
        elif kind == "water":
            cx, r = x0 + s / 2, s * 0.3
            cy = y0 + s * 0.64
            draw.polygon(
                [
                    (cx, y0 + s * 0.04),
                    (cx - r * 0.92, cy - r * 0.35),
                    (cx + r * 0.92, cy - r * 0.35),
                ],
                fill=fill,
            )
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)
            hr = r * 0.32
            draw.ellipse(
                (cx - r * 0.45 - hr, cy - hr, cx - r * 0.45 + hr, cy + hr),
                fill=(255, 255, 255, 160),
            )
        elif kind == "chance":
            f = font("bold", round(s * 0.95))
            draw.text(
                (x0 + s / 2, y0 + s / 2),
                "?",
                font=f,
                fill=fill,
                anchor="mm",
                stroke_width=lw // 2,
                stroke_fill=edge,
            )
        elif kind == "community":
            # A chest: body, lid, band and lock.
            top, mid, bot = y0 + s * 0.2, y0 + s * 0.44, y0 + s * 0.88
            left, right = x0 + s * 0.06, x0 + s * 0.94
            draw.rounded_rectangle(
                (left, top, right, mid + s * 0.04),
                s * 0.12,
                fill=fill,
                outline=edge,
                width=lw // 2 or 1,
            )
            draw.rectangle((left, mid, right, bot), fill=fill, outline=edge, width=lw // 2 or 1)
            draw.rectangle(
                (x0 + s * 0.42, mid - s * 0.06, x0 + s * 0.58, mid + s * 0.16),
                fill=(255, 215, 90, 255),
                outline=edge,
                width=lw // 3 or 1,
            )
        elif kind == "tax":
            r = s * 0.46
            cx, cy = x0 + s / 2, y0 + s / 2
            draw.ellipse(
                (cx - r, cy - r, cx + r, cy + r), fill=fill, outline=edge, width=lw // 2 or 1
            )
            draw.ellipse(
                (cx - r * 0.78, cy - r * 0.78, cx + r * 0.78, cy + r * 0.78),
                outline=edge,
                width=lw // 3 or 1,
            )
            f = font("bold", round(s * (0.5 if len(text) <= 1 else 0.3)))
            draw.text((cx, cy), text or "¤", font=f, fill=edge, anchor="mm")
        elif kind == "parking":
            draw.rounded_rectangle(
                (x0 + s * 0.08, y0 + s * 0.04, x0 + s * 0.92, y0 + s * 0.96), s * 0.16, fill=fill
            )
            draw.rounded_rectangle(
                (x0 + s * 0.14, y0 + s * 0.10, x0 + s * 0.86, y0 + s * 0.90),
                s * 0.12,
                outline=(255, 255, 255, 255),
                width=lw // 2 or 1,
            )
            f = font("bold", round(s * 0.66))
            draw.text((x0 + s / 2, y0 + s / 2), "P", font=f, fill=(255, 255, 255, 255), anchor="mm")
        elif kind in ("police", "go"):
            # An arrow: for "go" pointing left (the way play runs from GO), for "police"
            # pointing down-left, towards the jail in the opposite corner.
            t = s * 0.16  # shaft half thickness
            head = s * 0.42
            shape = [
                (0.0, 0.5),
                (head / s, 0.5 - 0.34),
                (head / s, 0.5 - t / s),
                (1.0, 0.5 - t / s),
                (1.0, 0.5 + t / s),
                (head / s, 0.5 + t / s),
                (head / s, 0.5 + 0.34),
            ]
            if kind == "police":
                # Rotate by -45 degrees around the centre: left becomes down-left.
                a = math.radians(-45)
                ca, sa = math.cos(a), math.sin(a)
                rotated = []
                for px, py in shape:
                    dx, dy = px - 0.5, py - 0.5
                    rotated.append(
                        (0.5 + (dx * ca - dy * sa) * 0.92, 0.5 + (dx * sa + dy * ca) * 0.92)
                    )
                shape = rotated
            pts = [(x0 + px * s, y0 + py * s) for px, py in shape]
            draw.polygon(pts, fill=fill, outline=edge, width=lw // 2 or 1)

    return _supersampled(width, height, paint)


@lru_cache(maxsize=32)
def stamp(text: str, width: int, height: int, colour: RGB, paper: RGB) -> Image.Image:
    """A tilted rubber stamp with ``text`` (mortgaged lots), fitted in ``width`` x ``height``.

    ``paper`` is the colour under the stamp, let half through so the stamp reads on it.
    """
    from render.text import fit_text

    fitted = fit_text(
        text,
        round(width * 0.84),
        round(height * 0.7),
        face="bold",
        max_size=max(8, round(height * 0.5)),
        min_size=7,
        max_lines=1,
    )
    f = font("bold", fitted.size * SS)
    tw = round(f.getlength(fitted.lines[0]))
    th = round(fitted.height * SS)
    pad = fitted.size * SS // 3
    big = Image.new("RGBA", (tw + 4 * pad, th + 2 * pad), (0, 0, 0, 0))
    draw = ImageDraw.Draw(big)
    draw.rounded_rectangle(
        (SS, SS, big.width - SS, big.height - SS),
        pad,
        outline=(*colour, 235),
        width=max(SS, fitted.size * SS // 9),
        fill=(*paper, 170),
    )
    draw.text(
        (big.width / 2, big.height / 2), fitted.lines[0], font=f, fill=(*colour, 240), anchor="mm"
    )
    rotated = big.rotate(12, resample=Image.Resampling.BICUBIC, expand=True)
    scale = min(width * SS / rotated.width, height * SS / rotated.height, 1.0) / SS
    size = (max(1, round(rotated.width * scale)), max(1, round(rotated.height * scale)))
    return rotated.resize(size, Image.Resampling.LANCZOS)

"""Write the golden images of the board renderer (tests/render/golden/*.png).

Run after an intended change to the pictures, look at every image, then commit them:

    python -m tests.render.make_golden            # all cases
    python -m tests.render.make_golden NAME ...   # some cases
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterable
from pathlib import Path

if __package__ in (None, ""):  # run as a file: make the repository importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from tests.render.states import GOLDEN_CASES, render_case  # noqa: E402

GOLDEN_DIR = Path(__file__).resolve().parent / "golden"


def write_golden(names: list[str], cases: Iterable[str], render: Callable[[str], bytes]) -> int:
    """Render the named cases (all of ``cases`` if none) into the golden folder."""
    GOLDEN_DIR.mkdir(exist_ok=True)
    for name in names or sorted(cases):
        data = render(name)
        (GOLDEN_DIR / f"{name}.png").write_bytes(data)
        print(f"{name}.png: {len(data) / 1024:.0f} KB")
    return 0


def main(names: list[str]) -> int:
    """Render the named cases (all if none) into the golden folder."""
    return write_golden(names, GOLDEN_CASES, render_case)


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))

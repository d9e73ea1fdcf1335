"""Draw SMH's brand images (a house with a speech bubble) into custom_components/smh/brand/,
where Home Assistant 2026.3 and later read a custom integration's icon and logo. Drawn by code so
the images can be regenerated and reviewed, not carried as opaque binaries of unknown origin."""

from __future__ import annotations

import sys
from pathlib import Path

from PIL import Image, ImageDraw

BRAND = Path(__file__).resolve().parents[1] / "custom_components" / "smh" / "brand"
BLUE, ORANGE = (3, 169, 244, 255), (255, 152, 0, 255)


def icon(size: int) -> Image.Image:
    img = Image.new("RGBA", (size, size), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    u = size / 16
    d.polygon([(2 * u, 8 * u), (8 * u, 2.5 * u), (14 * u, 8 * u)], fill=BLUE)  # roof
    d.rectangle([3.5 * u, 8 * u, 12.5 * u, 14 * u], fill=BLUE)  # walls
    d.rounded_rectangle(
        [6 * u, 8.8 * u, 13.6 * u, 12.6 * u], radius=1.2 * u, fill=ORANGE
    )  # speech bubble
    d.polygon([(7.2 * u, 12.4 * u), (6.4 * u, 14 * u), (8.8 * u, 12.4 * u)], fill=ORANGE)
    for i in range(3):  # the words in the bubble
        x = (7.6 + 2.1 * i) * u
        d.ellipse([x, 10.2 * u, x + 0.9 * u, 11.1 * u], fill=(255, 255, 255, 255))
    return img


def logo(height: int) -> Image.Image:
    img = Image.new("RGBA", (height * 2, height), (0, 0, 0, 0))
    img.paste(icon(height), (0, 0))
    d = ImageDraw.Draw(img)
    u = height / 16
    x = 17 * u  # "SMH" drawn as blocks, so no font file is needed
    for letter in ("S", "M", "H"):
        _block_letter(d, letter, x, 4 * u, u)
        x += 5 * u
    return img


def _block_letter(d: ImageDraw.ImageDraw, letter: str, x: float, y: float, u: float) -> None:
    w, h, t = 4 * u, 8 * u, 1.1 * u
    bars = {
        "S": [
            (0, 0, w, t),
            (0, 0, t, h / 2),
            (0, h / 2 - t / 2, w, h / 2 + t / 2),
            (w - t, h / 2, w, h),
            (0, h - t, w, h),
        ],
        "M": [(0, 0, t, h), (w - t, 0, w, h)],
        "H": [(0, 0, t, h), (w - t, 0, w, h), (0, h / 2 - t / 2, w, h / 2 + t / 2)],
    }[letter]
    for x0, y0, x1, y1 in bars:
        d.rectangle([x + x0, y + y0, x + x1, y + y1], fill=BLUE)
    if letter == "M":  # the two strokes meeting in the middle
        d.line(
            [(x + t / 2, y + t / 2), (x + w / 2, y + h * 0.55), (x + w - t / 2, y + t / 2)],
            fill=BLUE,
            width=max(1, round(t)),
            joint="curve",
        )


def main() -> int:
    BRAND.mkdir(parents=True, exist_ok=True)
    for name, image in {
        "icon.png": icon(256),
        "icon@2x.png": icon(512),
        "logo.png": logo(128),
        "logo@2x.png": logo(256),
    }.items():
        image.save(BRAND / name, optimize=True)
        print(f"wrote {BRAND / name} {image.size[0]}x{image.size[1]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

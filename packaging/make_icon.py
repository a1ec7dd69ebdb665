"""Draw the Westeros application icon (our own artwork: a shield with a crown) with Pillow.

python packaging/make_icon.py    # writes packaging/westeros.ico and packaging/westeros.png
"""

from __future__ import annotations

from pathlib import Path

from PIL import Image, ImageDraw

HERE = Path(__file__).parent
SIZE = 256


def draw() -> Image.Image:
    """The icon at 256×256."""
    img = Image.new("RGBA", (SIZE, SIZE), (0, 0, 0, 0))
    d = ImageDraw.Draw(img)
    shield = [(28, 24), (228, 24), (228, 120), (200, 190), (128, 240), (56, 190), (28, 120)]
    d.polygon(shield, fill=(122, 24, 32, 255), outline=(230, 190, 80, 255), width=10)
    crown = [(64, 150), (72, 82), (100, 118), (128, 70), (156, 118), (184, 82), (192, 150)]
    d.polygon(crown, fill=(236, 196, 72, 255))
    d.rectangle((64, 150, 192, 172), fill=(236, 196, 72, 255))
    for x in (72, 128, 184):
        d.ellipse(
            (x - 9, 66 if x == 128 else 76, x + 9, 84 if x == 128 else 94),
            fill=(250, 230, 150, 255),
        )
    return img


def main() -> None:
    img = draw()
    img.save(HERE / "westeros.png")
    img.save(
        HERE / "westeros.ico",
        sizes=[(16, 16), (32, 32), (48, 48), (64, 64), (128, 128), (256, 256)],
    )


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Reads the coverage matrix back from a screenshot of `isapack coverage --html`.

    matrix_from_screenshot.py <png> <name>=<#rrggbb>...

Finds every solid rectangle of each named colour (a connected region of
exactly that colour that fills its bounding box) and prints what a person
sees: the legend (the small swatches, left to right) and the matrix (the
cell swatches, by row and column of their positions on the page), e.g.

    legend: exact generic not-covered
    row 1: exact exact
    row 2: exact not-covered

A cell that did not render, rendered in another colour or in the wrong
place changes the output; anti-aliased or partial regions are listed as
"ragged" so they cannot pass for a swatch.
"""
import sys

from PIL import Image


def regions(image, colours):
    """Connected regions of each colour: (name, x, y, width, height, solid)."""
    width, height = image.size
    pixels = image.load()
    seen = bytearray(width * height)
    found = []
    for y in range(height):
        for x in range(width):
            if seen[y * width + x]:
                continue
            name = colours.get(pixels[x, y])
            if name is None:
                continue
            stack = [(x, y)]
            seen[y * width + x] = 1
            count, x0, y0, x1, y1 = 0, x, y, x, y
            while stack:
                px, py = stack.pop()
                count += 1
                x0, y0, x1, y1 = min(x0, px), min(y0, py), max(x1, px), max(y1, py)
                for nx, ny in ((px + 1, py), (px - 1, py), (px, py + 1), (px, py - 1)):
                    if 0 <= nx < width and 0 <= ny < height and not seen[ny * width + nx] \
                            and pixels[nx, ny] == pixels[x, y]:
                        seen[ny * width + nx] = 1
                        stack.append((nx, ny))
            w, h = x1 - x0 + 1, y1 - y0 + 1
            found.append((name, x0, y0, w, h, count == w * h))
    return found


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    colours = {}
    for argument in sys.argv[2:]:
        name, _, value = argument.partition("=")
        value = value.lstrip("#")
        colours[tuple(int(value[i:i + 2], 16) for i in (0, 2, 4))] = name
    image = Image.open(sys.argv[1]).convert("RGB")
    found = regions(image, colours)
    # The cells are the largest swatches; the legend's are the small ones.
    largest = max((w * h for _, _, _, w, h, solid in found if solid), default=0)
    cells = [r for r in found if r[5] and r[3] * r[4] == largest]
    legend = [r for r in found if r[5] and r[3] * r[4] < largest]
    ragged = [r for r in found if not r[5]]
    print("legend: " + " ".join(r[0] for r in sorted(legend, key=lambda r: (r[2], r[1]))))
    rows = sorted({r[2] for r in cells})
    for index, top in enumerate(rows, 1):
        row = sorted((r for r in cells if r[2] == top), key=lambda r: r[1])
        print(f"row {index}: " + " ".join(r[0] for r in row))
    for name, x, y, w, h, _ in ragged:
        print(f"ragged: {name} {w}x{h} at {x},{y}")
    if cells:
        print(f"cell swatch: {cells[0][3]}x{cells[0][4]} pixels")


if __name__ == "__main__":
    main()

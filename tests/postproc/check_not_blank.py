#!/usr/bin/python3
"""check_not_blank.py IMAGE.png [MIN_COLOURS]: exit 0 when the image holds at
least MIN_COLOURS (default 20) distinct colours and a tenth of its pixels are not
the white background, i.e. a field was drawn, not an empty window or a flat one."""
import sys

import vtk


def main():
    path, min_colours = sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 20
    reader = vtk.vtkPNGReader()
    reader.SetFileName(path)
    reader.Update()
    image = reader.GetOutput()
    scalars = image.GetPointData().GetScalars()
    if scalars is None or image.GetNumberOfPoints() == 0:
        sys.exit(f"{path}: not a readable PNG")
    n, c = scalars.GetNumberOfTuples(), scalars.GetNumberOfComponents()
    colours, drawn = set(), 0
    for i in range(0, n, 3):  # every third pixel is plenty
        px = tuple(int(scalars.GetComponent(i, k)) for k in range(min(c, 3)))
        colours.add(px)
        drawn += px != (255, 255, 255)
    share = drawn / len(range(0, n, 3))
    print(f"{path}: {len(colours)} colours, {100 * share:.1f}% of pixels not background")
    if len(colours) < min_colours or share < 0.1:
        sys.exit(f"{path}: looks blank")


if __name__ == "__main__":
    main()

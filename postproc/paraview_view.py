"""A first look at a miniapp's fields in your own ParaView (not needed by CI;
Debian 12 cannot install python3-paraview beside python3-vtk9, so the
tests use postproc/render_fields.py instead). Run with ParaView's Python:

  pvpython postproc/paraview_view.py out/tb-comp2d/flow.pvd cylinder.png
  pvpython postproc/paraview_view.py out/tb-incomp/flow.pvd cavity.png --field pressure
  (or, in the ParaView GUI: View > Python Shell > Run Script, after setting sys.argv)

It opens the series (.pvd) or one file (.vts/.pvts/.vtu/.pvtu), goes to the
last time step, colours by the field (default: velocity magnitude), adds
velocity glyphs on the mid-plane (velocity is a 3-component array in every
miniapp, so no Calculator is needed), and saves a screenshot.
"""
import argparse

from paraview.simple import (ColorBy, GetActiveViewOrCreate, GetAnimationScene, Glyph, OpenDataFile, ResetCamera,
                             SaveScreenshot, Show, Slice)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("path", help="flow.pvd, or a .vts/.pvts/.vtu/.pvtu")
    parser.add_argument("png")
    parser.add_argument("--field", default="velocity", help="array to colour by (default: velocity, by magnitude)")
    parser.add_argument("--glyphs", type=int, default=400, help="number of velocity arrows; 0 for none")
    args = parser.parse_args()

    source = OpenDataFile(args.path)
    if source is None:
        raise SystemExit(f"{args.path}: ParaView cannot open this file")
    GetAnimationScene().UpdateAnimationUsingDataTimeSteps()
    GetAnimationScene().AnimationTime = source.TimestepValues[-1] if source.TimestepValues else 0.0
    bounds = source.GetDataInformation().GetBounds()
    plane = Slice(Input=source)
    plane.SliceType = "Plane"
    plane.SliceType.Origin = [0.0, 0.0, 0.5 * (bounds[4] + bounds[5])]
    plane.SliceType.Normal = [0.0, 0.0, 1.0]
    view = GetActiveViewOrCreate("RenderView")
    shown = Show(plane if bounds[5] > bounds[4] else source, view)
    ColorBy(shown, ("CELLS", args.field, "Magnitude"))
    shown.SetScalarBarVisibility(view, True)
    if args.glyphs > 0:
        arrows = Glyph(Input=plane if bounds[5] > bounds[4] else source, GlyphType="Arrow")
        arrows.OrientationArray = ["CELLS", "velocity"]
        arrows.ScaleArray = ["CELLS", "velocity"]
        arrows.MaximumNumberOfSamplePoints = args.glyphs
        Show(arrows, view)
    view.InteractionMode = "2D"
    ResetCamera(view)
    SaveScreenshot(args.png, view, ImageResolution=[1000, 800])
    print(f"wrote {args.png}")


if __name__ == "__main__":
    main()

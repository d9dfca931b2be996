#!/usr/bin/python3
"""Renders a field file of a run to PNG, coloured by a field (default: speed =
|velocity|) with a colour bar. Reads every file the miniapps write:

  .vts   tb-incomp, tb-ib on one rank (structured, 3D: the mid-plane in z is drawn)
  .pvts  tb-ib under mpiexec (one piece per rank; the mid-plane in z)
  .vtu   tb-comp2d (unstructured 2D, drawn whole)
  .pvtu  partitioned unstructured files

  xvfb-run -a /usr/bin/python3 postproc/render_fields.py out/tb-incomp/fields/flow_000092.vts out.png
  ... --field vorticity        any point or cell array; vectors by their magnitude
  ... --zoom 8                 closer to the centre (tb-comp2d's far field is 50 chords away)

Uses Debian's VTK Python bindings (python3-vtk9); without a display, run it under
xvfb-run. ParaView opens the same files (the .pvd groups the time series);
postproc/paraview_view.py does the same picture in a user's own ParaView.
"""
import argparse
import os
import sys

import vtk

READERS = {
    ".vts": vtk.vtkXMLStructuredGridReader,
    ".pvts": vtk.vtkXMLPStructuredGridReader,
    ".vtu": vtk.vtkXMLUnstructuredGridReader,
    ".pvtu": vtk.vtkXMLPUnstructuredGridReader,
}


def read(path):
    ext = os.path.splitext(path)[1].lower()
    if ext not in READERS:
        sys.exit(f"{path}: not a field file this script reads; expected one of {', '.join(READERS)}")
    if not os.path.isfile(path):
        sys.exit(f"{path}: no such file")
    reader = READERS[ext]()
    reader.SetFileName(path)
    reader.Update()
    data = reader.GetOutput()
    if data.GetNumberOfPoints() == 0:
        sys.exit(f"{path}: no points in this file (not written by VTK, or empty)")
    to_points = vtk.vtkCellDataToPointData()
    to_points.SetInputData(data)
    to_points.PassCellDataOn()
    to_points.Update()
    return to_points.GetOutput()


def mid_plane(data):
    """The mid-plane in z of a 3D data set; a flat (2D) one is returned as it is."""
    bounds = data.GetBounds()
    if bounds[5] - bounds[4] <= 1e-12 * max(1.0, bounds[1] - bounds[0]):
        return data
    plane = vtk.vtkPlane()
    plane.SetOrigin(0.0, 0.0, 0.5 * (bounds[4] + bounds[5]))
    plane.SetNormal(0.0, 0.0, 1.0)
    cut = vtk.vtkCutter()
    cut.SetInputData(data)
    cut.SetCutFunction(plane)
    cut.Update()
    return cut.GetOutput()


def with_speed(slice_):
    if not slice_.GetPointData().HasArray("velocity"):
        return slice_
    calc = vtk.vtkArrayCalculator()
    calc.SetInputData(slice_)
    calc.SetAttributeTypeToPointData()
    calc.AddVectorArrayName("velocity")
    calc.SetFunction("mag(velocity)")
    calc.SetResultArrayName("speed")
    calc.Update()
    return calc.GetOutput()


def array_names(data):
    names = [data.GetPointData().GetArrayName(i) for i in range(data.GetPointData().GetNumberOfArrays())]
    return ", ".join(n for n in names if n)


def render(slice_, field, png, size, zoom):
    lo, hi = slice_.GetPointData().GetArray(field).GetRange(-1)  # magnitude for vectors
    mapper = vtk.vtkDataSetMapper()
    mapper.SetInputData(slice_)
    mapper.SetScalarModeToUsePointFieldData()
    mapper.SelectColorArray(field)
    colours = vtk.vtkLookupTable()
    colours.SetHueRange(0.667, 0.0)  # blue (low) to red (high)
    colours.SetVectorModeToMagnitude()  # vectors (velocity, vorticity) by their length
    colours.SetRange(lo, hi)
    colours.Build()
    mapper.SetLookupTable(colours)
    mapper.UseLookupTableScalarRangeOn()
    renderer = vtk.vtkRenderer()
    renderer.SetBackground(1.0, 1.0, 1.0)
    surface = vtk.vtkActor()
    surface.SetMapper(mapper)
    renderer.AddActor(surface)
    bar = vtk.vtkScalarBarActor()
    bar.SetLookupTable(colours)
    bar.SetTitle(field)
    bar.GetTitleTextProperty().SetColor(0, 0, 0)
    bar.GetLabelTextProperty().SetColor(0, 0, 0)
    renderer.AddActor2D(bar)
    renderer.ResetCamera()
    renderer.GetActiveCamera().Zoom(zoom)
    window = vtk.vtkRenderWindow()
    window.SetOffScreenRendering(1)
    window.AddRenderer(renderer)
    window.SetSize(size, size)
    window.Render()
    image = vtk.vtkWindowToImageFilter()
    image.SetInput(window)
    writer = vtk.vtkPNGWriter()
    writer.SetFileName(png)
    writer.SetInputConnection(image.GetOutputPort())
    writer.Write()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("field_file", help=".vts, .pvts, .vtu or .pvtu")
    parser.add_argument("png")
    parser.add_argument("--field", default="speed", help="point or cell array to colour by (default: speed)")
    parser.add_argument("--size", type=int, default=700)
    parser.add_argument("--zoom", type=float, default=1.0, help="camera zoom after fitting the whole domain")
    args = parser.parse_args()
    if args.size < 16 or args.zoom <= 0.0:
        sys.exit("--size must be at least 16 and --zoom positive")

    slice_ = with_speed(mid_plane(read(args.field_file)))
    if not slice_.GetPointData().HasArray(args.field):
        sys.exit(f"{args.field_file}: no field '{args.field}' (fields: {array_names(slice_)})")
    render(slice_, args.field, args.png, args.size, args.zoom)
    print(f"wrote {args.png}")


if __name__ == "__main__":
    main()

#!/usr/bin/python3
"""Renders a structured-grid field file (.vts) of a run to PNG: the mid-plane in z
coloured by a field (default: speed), with a colour bar.

  xvfb-run -a /usr/bin/python3 postproc/render_fields.py out/tb-incomp/fields/flow_000092.vts out.png
  ... --field vorticity

Uses Debian's VTK Python bindings (python3-vtk9); without a display, run it under
xvfb-run. ParaView opens the same files (the .pvd groups the time series).
"""
import argparse
import sys

import vtk


def read(path):
    reader = vtk.vtkXMLStructuredGridReader()
    reader.SetFileName(path)
    reader.Update()
    grid = reader.GetOutput()
    if grid.GetNumberOfPoints() == 0:
        sys.exit(f"{path}: no structured grid in this file")
    to_points = vtk.vtkCellDataToPointData()
    to_points.SetInputData(grid)
    to_points.PassCellDataOn()
    to_points.Update()
    return to_points.GetOutput()


def mid_plane(data):
    bounds = data.GetBounds()
    plane = vtk.vtkPlane()
    plane.SetOrigin(0.0, 0.0, 0.5 * (bounds[4] + bounds[5]))
    plane.SetNormal(0.0, 0.0, 1.0)
    cut = vtk.vtkCutter()
    cut.SetInputData(data)
    cut.SetCutFunction(plane)
    cut.Update()
    return cut.GetOutput()


def with_speed(slice_):
    calc = vtk.vtkArrayCalculator()
    calc.SetInputData(slice_)
    calc.SetAttributeTypeToPointData()
    calc.AddVectorArrayName("velocity")
    calc.SetFunction("mag(velocity)")
    calc.SetResultArrayName("speed")
    calc.Update()
    return calc.GetOutput()


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("vts")
    parser.add_argument("png")
    parser.add_argument("--field", default="speed", help="point or cell array to colour by (default: speed)")
    parser.add_argument("--size", type=int, default=700)
    args = parser.parse_args()

    slice_ = with_speed(mid_plane(read(args.vts)))
    if not slice_.GetPointData().HasArray(args.field):
        names = [slice_.GetPointData().GetArrayName(i) for i in range(slice_.GetPointData().GetNumberOfArrays())]
        sys.exit(f"{args.vts}: no field '{args.field}' (fields: {', '.join(names)})")
    lo, hi = slice_.GetPointData().GetArray(args.field).GetRange(-1)  # magnitude for vectors
    mapper = vtk.vtkDataSetMapper()
    mapper.SetInputData(slice_)
    mapper.SetScalarModeToUsePointFieldData()
    mapper.SelectColorArray(args.field)
    mapper.SetScalarRange(lo, hi)
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
    bar.SetLookupTable(mapper.GetLookupTable())
    bar.SetTitle(args.field)
    bar.GetTitleTextProperty().SetColor(0, 0, 0)
    bar.GetLabelTextProperty().SetColor(0, 0, 0)
    renderer.AddActor2D(bar)
    renderer.ResetCamera()
    window = vtk.vtkRenderWindow()
    window.SetOffScreenRendering(1)
    window.AddRenderer(renderer)
    window.SetSize(args.size, args.size)
    window.Render()
    image = vtk.vtkWindowToImageFilter()
    image.SetInput(window)
    writer = vtk.vtkPNGWriter()
    writer.SetFileName(args.png)
    writer.SetInputConnection(image.GetOutputPort())
    writer.Write()
    print(f"wrote {args.png}")


if __name__ == "__main__":
    main()

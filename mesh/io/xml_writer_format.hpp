#pragma once
// How every VTK XML file of the project is written, in one place (the VTK
// headers stay in the .cpp): appended raw binary, and zlib at level 1. Our
// fields are doubles, which zlib hardly compresses at any level, so a higher
// level costs time for nothing (and not every reader of the format has LZ4).
class vtkXMLWriter;

namespace tb {

void set_xml_writer_format(vtkXMLWriter& writer);

}  // namespace tb

#pragma once
// How every VTK XML file of the project is written, in one place (the VTK
// headers stay in the .cpp): appended raw binary, and zlib at level 1. Our
// fields are doubles, which zlib hardly compresses at any level: on the
// 13,794-cell NACA 0012 field file level 1 took 22 ms for 1,064 KiB against
// VTK's default level 5's 55 ms for 1,057 KiB (LZ4: 2.4 ms, 1,396 KiB, and
// not every reader of the format has it).
class vtkXMLWriter;

namespace tb {

void set_xml_writer_format(vtkXMLWriter& writer);

}  // namespace tb

#include "mesh/io/xml_writer_format.hpp"

#ifdef TB_WITH_VTK
#include <vtkDataCompressor.h>
#include <vtkXMLWriter.h>
#endif

namespace tb {

#ifdef TB_WITH_VTK
void set_xml_writer_format(vtkXMLWriter& writer) {
  writer.SetDataModeToAppended();
  writer.EncodeAppendedDataOff();
  writer.SetCompressorTypeToZLib();
  writer.GetCompressor()->SetCompressionLevel(1);
}
#endif

}  // namespace tb

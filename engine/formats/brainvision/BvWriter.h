// Writes one BrainVision file set: the data file streamed as it comes, the header and marker files at the end; all
// three under temporary names, moved into place together (data, markers, then the header that names them).
#pragma once

#include "core/Error.h"
#include "formats/brainvision/BvHeader.h"
#include "formats/brainvision/BvMarkers.h"
#include "io/AtomicFile.h"

#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace lv::formats::brainvision {

struct BvFileSpec {
    BinaryFormat format = BinaryFormat::Int16;
    double fs = 0;                   // one rate for every channel
    std::vector<BvChannel> channels; // name, resolution, unit (reference and coordinates are not written)
    std::string comment;             // the [Comment] section (provenance), lines separated by '\n'
    std::string program;             // "Longview 1.2.0", in a comment line of the header
    std::int64_t dataPoints = -1;    // written as DataPoints= (readers check the data file against it); -1: not
};

// The header's text (UTF-8, CRLF lines) naming `dataName` and `markerName` (file names beside it).
std::string headerText(const BvFileSpec& spec, const std::string& dataName, const std::string& markerName);
// The marker file's text: markers in the order given, numbered from Mk1.
std::string markerText(const std::vector<BvMarker>& markers, const std::string& dataName);

class BvWriter {
public:
    // `header` ends in .vhdr; the data and marker files take its name with .eeg and .vmrk. Refuses when any of
    // the three exists.
    static core::Result<std::unique_ptr<BvWriter>> create(const std::string& header);

    core::Status appendData(std::string_view bytes) { return m_data.write(bytes); }
    // Writes the marker and header files, syncs all three and moves them into place.
    core::Status commit(const BvFileSpec& spec, const std::vector<BvMarker>& markers);
    const std::string& header() const { return m_header.target(); }

private:
    BvWriter() = default;
    io::AtomicFile m_data, m_markers, m_header;
    std::string m_dataName, m_markerName;
};

} // namespace lv::formats::brainvision

// The provenance text, and the value a conversion job records.
#include "convert/Provenance.h"

#include "core/Version.h"

#include <filesystem>

namespace lv::convert {

std::string Provenance::text() const
{
    if (empty()) return {};
    std::string out = "converted by " + tool + " " + version + " from " + format;
    for (std::size_t i = 0; i < sources.size(); ++i) out += (i == 0 ? " " : ", ") + sources[i];
    if (deidentified || datesShifted)
        out += std::string(" (") + (deidentified ? "de-identified" : "") + (deidentified && datesShifted ? ", " : "") +
               (datesShifted ? "dates shifted" : "") + ")";
    if (!processing.empty()) out += "; " + processing;
    return out;
}

Provenance provenanceOf(const std::vector<std::string>& inputs, const std::string& format, bool anonymized,
                        bool datesShifted)
{
    Provenance p;
    p.format = format;
    p.tool = "Longview";
    p.version = core::kVersion;
    p.deidentified = anonymized;
    p.datesShifted = datesShifted;
    if (anonymized) return p;
    for (const std::string& input : inputs) {
        if (input.empty()) continue;
        std::error_code ec;
        std::filesystem::path absolute = std::filesystem::absolute(input, ec).lexically_normal();
        if (!absolute.has_filename()) absolute = absolute.parent_path(); // "/data/s.mefd/": the folder's own name
        p.sources.push_back(ec ? input : absolute.string());
    }
    return p;
}

Provenance provenanceOr(const Provenance& given, const core::RecordingInfo& info)
{
    if (!given.empty()) return given;
    return provenanceOf({info.path}, info.format, false, false);
}

} // namespace lv::convert

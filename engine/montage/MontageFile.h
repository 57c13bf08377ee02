// Montage files: Longview's own JSON (documented in engine/README.md, "Montage files") and EDFbrowser's montage
// XML (.mtg) as far as its derivations are sums of channels.
#pragma once

#include "core/Error.h"
#include "montage/Montage.h"

#include <string>
#include <string_view>
#include <vector>

namespace lv::montage {

// {"format": "longview-montage", "version": 1, "name": ..., "derivations": [{"name", "unit", "type",
// "terms": [{"channel", "weight"}], "colour", "sensitivity", "filter", "inverted"}]}.
std::string formatMontage(const Montage& montage);

// Corrupt (naming `file` and the byte or derivation) when the text is not such a file; Unsupported for a newer
// version.
core::Result<Montage> parseMontage(std::string_view text, const std::string& file);

core::Result<Montage> readMontageFile(const std::string& file);

// Written whole (temporary file and rename), replacing what is there.
core::Status writeMontageFile(const Montage& montage, const std::string& file);

} // namespace lv::montage

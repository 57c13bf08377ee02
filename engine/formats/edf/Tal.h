// EDF+ Time-stamped Annotation Lists (TALs): parsing an annotation signal's bytes, and writing TALs.
#pragma once

#include "core/Time.h"

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

namespace lv::formats::edf {

struct Tal {
    core::Uutc onsetUs = 0;               // from the header's start time (microseconds, rounded)
    std::optional<core::Uutc> durationUs; // when given
    std::vector<std::string> texts;       // each annotation's text (UTF-8); empty texts kept
};

// Every TAL in one annotation signal's bytes of one record. A malformed TAL is skipped up to the next NUL and
// described in `problems` (when given). Never reads outside `bytes`.
std::vector<Tal> parseTals(std::span<const std::uint8_t> bytes, std::vector<std::string>* problems = nullptr);

// "+12.5" style onset text of a time offset in microseconds ("+0", "-1.25", "+3600.000001").
std::string formatOnset(core::Uutc us);
// The bytes of one TAL: onset, optional duration, texts (each followed by 20), closing 0. Bytes 0, 20 and 21
// inside a text (the TAL delimiters) are written as spaces.
std::string formatTal(core::Uutc onsetUs, std::optional<core::Uutc> durationUs, const std::vector<std::string>& texts);

} // namespace lv::formats::edf

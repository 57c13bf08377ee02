// Channel labels read as 10-20/10-10 electrode names: "EEG Fp1", "FP1-REF", "Fp1-LE" and "fp1" are Fp1; the old
// temporal names T3, T4, T5 and T6 are the same electrodes as T7, T8, P7 and P8.
#pragma once

#include "core/RecordingInfo.h"

#include <map>
#include <optional>
#include <string>

namespace lv::montage {

// The electrode a label names, in its 10-10 spelling ("Fp1", "T7", "Cz"), or nullopt when the label is not one
// electrode against a common reference ("Fp1-F7" is a derivation, "ECG" no electrode).
std::optional<std::string> electrodeOf(const std::string& label);

// The electrode name as the label writes it, in 10-10 case: "T3" for "EEG T3-REF" (for derivation names).
std::optional<std::string> electrodeAsLabelled(const std::string& label);

// Grid channels of a recording by electrode (10-10 spelling); the first channel naming an electrode wins.
std::map<std::string, std::size_t> electrodeChannels(const core::RecordingInfo& info);

} // namespace lv::montage

// Import of EDFbrowser's montage files (.mtg, XML as in EDFbrowser's doc/montage_file_format.txt): each signal
// composition becomes a derivation with its sum of signals, colour, sensitivity, polarity and those filters that
// Longview has (Butterworth high-, low-, band-pass, band-stop, notch); the rest is reported, not guessed.
#pragma once

#include "core/Error.h"
#include "core/RecordingInfo.h"
#include "montage/Montage.h"

#include <string>
#include <string_view>
#include <vector>

namespace lv::montage {

struct MontageImport {
    Montage montage;
    std::vector<std::string> notes; // "F4-FP2: a Chebyshev filter is not imported", ...
};

// `channels`: the recording's channels, for compositions that name a signal by its index (<edfindex>); without
// them such compositions are left out with a note. Corrupt, naming the file and the composition, when the XML is
// not an EDFbrowser montage.
core::Result<MontageImport> parseEdfBrowserMontage(std::string_view xml, const std::string& file,
                                                   const std::vector<core::ChannelInfo>& channels = {});

// pugixml's version ("1.13"), for Help > About.
std::string xmlLibraryVersion();

core::Result<MontageImport> readEdfBrowserMontage(const std::string& file,
                                                  const std::vector<core::ChannelInfo>& channels = {});

} // namespace lv::montage

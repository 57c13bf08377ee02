// A rough size and duration of a conversion before it runs: samples in the selection times bytes per sample of
// the target, divided by the conversion rate measured in bench/README.md ("The conversion hub").
#pragma once

#include "convert/Selection.h"
#include "core/RecordingInfo.h"

#include <cstdint>
#include <string>

namespace lv::convert {

struct OutputEstimate {
    std::int64_t samples = 0; // grid points of the selected channels in the range
    std::uint64_t bytes = 0;  // of the output (CSV: the table; side files are small)
    double seconds = 0;       // at the measured rate for this target and thread count
};

// Bytes per sample: EDF+ 2, BDF+ 3 (exact but for headers and annotation records), MEF 3.0 1.65 (RED on the
// synthetic EEG of the benchmark: 1113 MB for 707.8 M samples; real data compresses differently), CSV 5.1 (1145 MB
// for 236 M samples: values at 0.1 uV plus the time column shared by 64 channels). Samples per second, one thread /
// two or more: to EDF+ 54 M / 80 M, to BDF+ 48 M / 70 M, to CSV 20 M / 27 M, to MEF 25 M / 42 M from MEF and
// 39 M / 60 M from EDF. `extension` is a target's ("edf", "bdf", "mefd", "csv"); an unknown one gives zeros.
OutputEstimate estimateOutput(const std::string& extension, const core::RecordingInfo& info, const Selection& selection,
                              std::size_t threads);

} // namespace lv::convert

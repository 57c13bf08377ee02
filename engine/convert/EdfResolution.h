// How finely an EDF+ (16-bit) or BDF+ (24-bit) output keeps each channel's values: the step the writer would
// choose from the data's extrema, against the source's own step, before anything is written.
#pragma once

#include "convert/EdfExport.h"
#include "core/Recording.h"

#include <string>
#include <vector>

namespace lv::convert {

struct EdfResolution {
    std::string channel;
    std::string unit;
    double sourceStep = 0; // the source's physical step (|conversion factor|)
    double edfStep = 0;    // the step the EDF+ writer would keep (chooseEdfScale on the data's extrema)
    double bdfStep = 0;    // the same for BDF+

    // How many times coarser than the source EDF+ keeps it (1: nothing lost; the writer warns above 1.01).
    double edfCoarser() const { return sourceStep > 0 ? edfStep / sourceStep : 1.0; }
    bool edfLoses() const { return edfCoarser() > 1.01; }
    bool bdfLoses() const { return sourceStep > 0 && bdfStep / sourceStep > 1.01; }
};

// Per channel of `options.channels` over `options.range` (options.bdf is ignored): the extrema come from the
// block index where the recording has one (a few blocks decoded), else from reading every sample (the writer's
// first pass), so run it off the UI thread. The steps are the ones exportEdf would write with these options.
core::Result<std::vector<EdfResolution>> edfResolution(core::Recording& recording, const EdfExportOptions& options,
                                                       const core::ReadControl& control);

} // namespace lv::convert

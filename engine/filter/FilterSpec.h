// What a reader asks of a channel's filter, in the words of the CLI ("hp=0.5,lp=70,notch=50") and of a channel's
// label ("HP 0.5 LP 70 N50"), and the cascade it makes at a channel's rate.
#pragma once

#include "core/Error.h"
#include "filter/Filtering.h"
#include "filter/Sos.h"

#include <string>

namespace lv::filter {

struct FilterSpec {
    double highPassHz = 0; // 0: none
    double lowPassHz = 0;
    double bandPassLowHz = 0, bandPassHighHz = 0; // both 0: none
    double bandStopLowHz = 0, bandStopHighHz = 0;
    int order = 2;          // Butterworth order of every pass and stop filter, 1-8
    double notchHz = 0;     // 0: none; 50 or 60 for the power line
    int notchHarmonics = 1; // notches at notchHz, 2 notchHz, ... (those below half the rate)
    double notchQ = 30;
    Phase phase = Phase::Zero;

    bool any() const;
    bool operator==(const FilterSpec&) const = default;
};

// "hp=0.5,lp=70,notch=50" and also bp=1-40, bs=45-55, order=4, harmonics=3, q=35, causal; "" or "none" is no
// filter. InvalidArgument, in words naming the part, for anything else.
core::Result<FilterSpec> parseFilterSpec(const std::string& text);

// The spec in parseFilterSpec's words (round trips); "none" for no filter.
std::string filterSpecText(const FilterSpec& spec);

// Short, for a channel's label: "HP 0.5 LP 70 N50" (", causal" when causal); "" for no filter.
std::string filterLabel(const FilterSpec& spec);

// The cascade for a channel sampled at fs: high-pass, low-pass, band-pass, band-stop, then the notches.
// InvalidArgument when an edge does not fit the rate ("a filter edge at 200 Hz must lie ...").
core::Result<Sos> designFilter(const FilterSpec& spec, double fs);

} // namespace lv::filter

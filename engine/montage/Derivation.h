// A derivation: one trace computed as a weighted sum of recorded channels on the same grid ("Fp1-F7" is
// Fp1 x 1 + F7 x -1), with its name, unit, type and how it is shown.
#pragma once

#include <string>
#include <vector>

namespace lv::montage {

// A recorded channel, by its name in the recording, and its weight in the sum.
struct Term {
    std::string channel;
    double weight = 1;

    bool operator==(const Term&) const = default;
};

// How a derivation is drawn; empty or 0 fields leave the viewer's own choice.
struct DisplaySettings {
    std::string colour;     // "#rrggbb", or ""
    double sensitivity = 0; // units per cm (EDFbrowser's voltpercm), 0: the page's
    std::string filter;     // filter::parseFilterSpec's words ("hp=0.5,lp=70"), or ""
    bool inverted = false;  // drawn upside down

    bool operator==(const DisplaySettings&) const = default;
};

struct Derivation {
    std::string name; // "Fp1-F7"
    std::string unit; // "" : the first term's unit
    std::string type; // core::channelTypeName's words ("EEG"), or "" : the first term's type
    std::vector<Term> terms;
    DisplaySettings display;

    bool operator==(const Derivation&) const = default;
};

} // namespace lv::montage

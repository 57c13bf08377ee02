// A montage: the ordered derivations a reader looks at instead of the channels as recorded.
#pragma once

#include "montage/Derivation.h"

#include <string>
#include <vector>

namespace lv::montage {

struct Montage {
    std::string name; // "Double banana"
    std::vector<Derivation> derivations;

    bool operator==(const Montage&) const = default;
};

} // namespace lv::montage

// scipy.signal run at test time on the same filters and signal (tests/engine/filter/scipy_filter.py).
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

namespace lv::test {

// `filters` as scipy_filter.py takes them; the JSON it prints, or a null value when python3 or scipy failed.
nlohmann::json scipyFilter(double fs, const nlohmann::json& filters, const std::vector<double>& freqs,
                           const std::vector<double>& signal);

} // namespace lv::test

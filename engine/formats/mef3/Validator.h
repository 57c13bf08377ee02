// Checks a MEF 3.0 session file by file: every CRC, index against data, time order, metadata totals.
#pragma once

#include "core/Error.h"
#include "core/TaskRunner.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lv::formats::mef3 {

struct Problem {
    std::string path;         // empty when `what` begins with the path itself (a warning of the open)
    std::int64_t offset = -1; // byte offset in that file, or -1
    std::string what;
};

// Every problem found; an error only when the session cannot be walked at all (no such path, not MEF).
// Cancelled (checked at every block) gives a Cancelled error.
core::Result<std::vector<Problem>> validateSession(const std::string& path, const std::string& password,
                                                   const core::CancelToken* cancel = nullptr);

} // namespace lv::formats::mef3

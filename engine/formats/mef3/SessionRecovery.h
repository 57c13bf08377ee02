// Repairs a session after a crash: leftovers of unfinished writes removed, every segment's index and metadata
// rebuilt from its RED blocks, damaged tails cut off. Reports what it kept and what it dropped.
#pragma once

#include "core/Error.h"
#include "core/TaskRunner.h"

#include <string>
#include <vector>

namespace lv::formats::mef3 {

struct RecoveryReport {
    std::vector<std::string> kept;    // one line per segment: "<segment>: N blocks, M samples"
    std::vector<std::string> dropped; // what was cut off or removed, with the reason
    bool changed = false;             // false when the session needed nothing
};

// `path` is a .mefd directory written in place (archives are read-only: extract them first).
// Cancelling stops between segments (each segment is rewritten whole or not at all) with a Cancelled error.
core::Result<RecoveryReport> recoverSession(const std::string& path, const std::string& password,
                                            const core::CancelToken* cancel = nullptr);

} // namespace lv::formats::mef3

// A session directory built under a locked temporary name beside its target, removed unless committed.
#pragma once

#include "core/Error.h"
#include "io/Temporary.h"

#include <string>

namespace lv::convert {

class TempTarget {
public:
    // Creates the empty, locked directory "<target>.tmp-<pid>-<n>" (io::Temporary), after removing the
    // temporaries of killed conversions to that target (whose lock nobody holds any more); its path.
    core::Result<std::string> reserve(const std::string& target);
    // Moves the directory to the target unless something exists there by then (then an Io error "the output
    // already exists; choose a new name" naming the target, and the temporary is removed on destruction).
    core::Status commit(const std::string& target);

private:
    io::Temporary m_temp;
};

} // namespace lv::convert

// The one place where engine errors become sentences for the user (CLI and GUI).
#pragma once

#include "core/Error.h"

#include <string>

namespace lv::app {

// "cannot read <path>: <what is wrong> (at byte N)" with a hint where one helps.
std::string errorText(const core::Error& error);

} // namespace lv::app

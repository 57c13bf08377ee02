// Text from a file made safe to print on a terminal: no control character reaches it raw.
#pragma once

#include <string>
#include <string_view>

namespace lv::core {

// `text` with every control character escaped: C0 (0x00-0x1F) and DEL as "\n", "\r", "\t", "\e" (ESC) or
// "\xNN"; C1 controls (U+0080-U+009F, UTF-8 C2 80 to C2 9F) as "\u0080" to "\u009f"; a byte that is not part
// of valid UTF-8 as "\xNN" (a terminal in an 8-bit mode would take 0x9B as CSI). Valid UTF-8 otherwise, and
// the backslash itself, pass unchanged.
std::string escapeControls(std::string_view text);

} // namespace lv::core

// libFuzzer target: arbitrary bytes as a user annotation sidecar. Never a crash; a file that reads writes back to
// text that reads to the same annotations (the writer's output always reads).
#include "annotations/AnnotationSidecar.h"

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string_view>

namespace {

void check(bool ok, const char* what)
{
    if (ok) return;
    std::fprintf(stderr, "invariant broken: %s\n", what);
    std::abort();
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size)
{
    using namespace lv::annotations;
    if (size > (1u << 20)) return 0;
    auto parsed = parseSidecar(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.json");
    if (!parsed) {
        check(!parsed.error().message.empty(), "an error without words");
        return 0;
    }
    const std::string text = formatSidecar(*parsed);
    auto again = parseSidecar(text, "again.json");
    check(again.ok(), "written sidecar does not read");
    check(again->annotations.size() == parsed->annotations.size(), "annotation count changed");
    check(formatSidecar(*again) == text, "written sidecar is not stable");
    return 0;
}

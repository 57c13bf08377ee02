// The widget tests' registry and main: the class named by the first argument runs; none or an unknown one lists them.
#include "WidgetTestMain.h"

#include <cstdio>
#include <cstring>
#include <map>
#include <string>

namespace lv::test {

namespace {

std::map<std::string, WidgetTestRun>& registry()
{
    static std::map<std::string, WidgetTestRun> tests;
    return tests;
}

} // namespace

bool registerWidgetTest(const char* name, WidgetTestRun run) { return registry().emplace(name, std::move(run)).second; }

} // namespace lv::test

int main(int argc, char** argv)
{
    const auto& tests = lv::test::registry();
    const auto it = argc > 1 ? tests.find(argv[1]) : tests.end();
    if (it == tests.end()) {
        std::fprintf(stderr, "usage: %s TEST [Qt Test options]; TEST is one of:\n", argv[0]);
        for (const auto& [name, run] : tests) std::fprintf(stderr, "  %s\n", name.c_str());
        return 2;
    }
    // The class sees the command line without its name, as in an executable of its own.
    for (int i = 1; i + 1 < argc; ++i) argv[i] = argv[i + 1];
    argv[argc - 1] = nullptr;
    return it->second(argc - 1, argv);
}

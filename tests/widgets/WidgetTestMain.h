// One executable for every widget test class (longview-widget-tests, one link instead of one per class): each test
// file registers its class by name; `longview-widget-tests NAME [Qt Test arguments]` runs that class in a process
// of its own, with the application object QTEST_MAIN (or QTEST_GUILESS_MAIN) would make for it.
#pragma once

#include <QtTest>

#include <functional>

namespace lv::test {

// Runs the class with the rest of the command line (argv[0] and Qt Test's options), returning its exit status.
using WidgetTestRun = std::function<int(int argc, char** argv)>;
bool registerWidgetTest(const char* name, WidgetTestRun run);

template <typename App, typename Test>
int runWidgetTest(int argc, char** argv)
{
    App app(argc, argv);
    if constexpr (std::is_same_v<App, QApplication>) app.setAttribute(Qt::AA_Use96Dpi, true);
    Test test;
    return QTest::qExec(&test, argc, argv);
}

} // namespace lv::test

#define LONGVIEW_TEST_REGISTER(App, Test)                                                                              \
    static const bool lvRegistered##Test = lv::test::registerWidgetTest(#Test, lv::test::runWidgetTest<App, Test>);

// In place of QTEST_MAIN (a QApplication), QTEST_GUILESS_MAIN (a QCoreApplication), or a QGuiApplication.
#define LONGVIEW_WIDGET_TEST(Test) LONGVIEW_TEST_REGISTER(QApplication, Test)
#define LONGVIEW_GUILESS_TEST(Test) LONGVIEW_TEST_REGISTER(QCoreApplication, Test)
#define LONGVIEW_GUI_TEST(Test) LONGVIEW_TEST_REGISTER(QGuiApplication, Test)

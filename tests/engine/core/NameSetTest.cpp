// NameSet against std::set: the same answers for names inserted, repeated, empty and absent, with and without a
// reservation, through every growth.
#include "core/NameSet.h"

#include <gtest/gtest.h>
#include <set>
#include <string>
#include <vector>

namespace lv::core {
namespace {

TEST(NameSet, AnswersAsAnOrderedSetThroughEveryGrowth)
{
    std::vector<std::string> names{"", "a", "b", "a", "ch0", "ch0 [group 1]", "ch0"};
    for (int i = 0; i < 5000; ++i) names.push_back("ch" + std::to_string(i * 7 % 3001));
    for (const std::size_t reserved : {std::size_t{0}, std::size_t{10}, names.size()}) {
        NameSet set;
        set.reserve(reserved);
        std::set<std::string> truth;
        for (const std::string& name : names) {
            EXPECT_EQ(set.contains(name), truth.contains(name)) << name << " reserved " << reserved;
            set.insert(name);
            truth.insert(name);
            ASSERT_TRUE(set.contains(name)) << name;
        }
        for (const std::string absent : {"ch3001", "c", "ch0 [group 2]", "A"}) EXPECT_FALSE(set.contains(absent));
    }
    EXPECT_FALSE(NameSet{}.contains("anything"));
}

} // namespace
} // namespace lv::core

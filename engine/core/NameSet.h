// A set of string views in one open-addressing array, for checking many names for uniqueness without a node each.
#pragma once

#include <algorithm>
#include <bit>
#include <cstddef>
#include <functional>
#include <string_view>
#include <vector>

namespace lv::core {

// Names held as views into one array (open addressing, linear probing): no node per name, as a hash set's (the
// 36,424 channel names of a wide MDF 4 file). Grows to stay at most half full. The viewed strings must outlive it.
class NameSet {
public:
    void reserve(std::size_t names) { grow(std::bit_ceil(std::max<std::size_t>(16, 2 * names))); }
    bool contains(std::string_view name) const { return !m_slots.empty() && m_slots[slotOf(name)].data() != nullptr; }
    void insert(std::string_view name)
    {
        if (2 * (m_count + 1) > m_slots.size()) grow(std::max<std::size_t>(16, 2 * m_slots.size()));
        std::string_view& slot = m_slots[slotOf(name)];
        if (slot.data() == nullptr) {
            slot = name;
            ++m_count;
        }
    }

private:
    std::size_t slotOf(std::string_view name) const
    {
        const std::size_t mask = m_slots.size() - 1;
        std::size_t i = std::hash<std::string_view>{}(name)&mask;
        while (m_slots[i].data() != nullptr && m_slots[i] != name) i = (i + 1) & mask;
        return i;
    }
    void grow(std::size_t size)
    {
        if (size <= m_slots.size()) return;
        std::vector<std::string_view> old(size);
        old.swap(m_slots);
        for (const std::string_view name : old)
            if (name.data() != nullptr) m_slots[slotOf(name)] = name;
    }

    std::vector<std::string_view> m_slots; // a null view: an empty slot (a name's view is never null)
    std::size_t m_count = 0;
};

} // namespace lv::core

// Small reads served from cached aligned windows.
#include "io/WindowedSource.h"

#include <algorithm>
#include <cstring>
#include <iterator>
#include <list>
#include <mutex>

namespace lv::io {

namespace {

class WindowedSource final : public ByteSource {
public:
    WindowedSource(ByteSourcePtr inner, std::uint64_t window, std::size_t windows)
        : m_inner(std::move(inner))
        , m_window(std::max<std::uint64_t>(window, 4096))
        , m_windows(std::max<std::size_t>(windows, 1))
    {}

    const std::string& path() const override { return m_inner->path(); }
    std::uint64_t size() const override { return m_inner->size(); }
    void willNeed(std::uint64_t offset, std::uint64_t size) const override { m_inner->willNeed(offset, size); }

    core::Status readAt(std::uint64_t offset, std::span<std::uint8_t> out) const override
    {
        const std::uint64_t total = m_inner->size();
        if (out.size() > m_window / 4 || offset >= total || out.size() > total - offset)
            return m_inner->readAt(offset, out); // large, or short: the inner source's own error
        std::lock_guard lock(m_mutex);
        std::uint64_t at = offset;
        std::size_t done = 0;
        while (done < out.size()) { // at most two windows
            auto window = windowAt(at - at % m_window);
            if (!window) return window.error();
            const std::uint64_t from = at - (*window)->first;
            const std::size_t n = std::min<std::size_t>(out.size() - done, (*window)->second.size() - from);
            std::memcpy(out.data() + done, (*window)->second.data() + from, n);
            done += n;
            at += n;
        }
        return {};
    }

private:
    using Window = std::pair<std::uint64_t, std::vector<std::uint8_t>>; // start, bytes
    static constexpr std::uint64_t kNoWindow = ~std::uint64_t{0};       // a window whose read failed

    core::Result<const Window*> windowAt(std::uint64_t start) const
    {
        for (auto it = m_cache.begin(); it != m_cache.end(); ++it)
            if (it->first == start) {
                m_cache.splice(m_cache.begin(), m_cache, it);
                return &m_cache.front();
            }
        if (m_cache.size() < m_windows) {
            m_cache.emplace_front();
        } else {
            m_cache.splice(m_cache.begin(), m_cache, std::prev(m_cache.end())); // the oldest window's bytes, reused
        }
        Window& w = m_cache.front();
        w.first = kNoWindow;
        w.second.resize(std::min(m_window, m_inner->size() - start)); // fresh pages once per window, not per read
        LV_TRY(m_inner->readAt(start, w.second));
        w.first = start;
        return &w;
    }

    ByteSourcePtr m_inner;
    std::uint64_t m_window;
    std::size_t m_windows;
    mutable std::mutex m_mutex;
    mutable std::list<Window> m_cache; // most recent first
};

} // namespace

ByteSourcePtr windowedSource(ByteSourcePtr inner, std::uint64_t window, std::size_t windows)
{
    return std::make_shared<WindowedSource>(std::move(inner), window, windows);
}

} // namespace lv::io

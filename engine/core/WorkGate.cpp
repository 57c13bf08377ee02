// A count of held passes under a mutex; closing waits for it to reach zero.
#include "core/WorkGate.h"

#include <condition_variable>
#include <mutex>
#include <utility>

namespace lv::core {

struct WorkGate::State {
    std::mutex mutex;
    std::condition_variable released;
    std::size_t held = 0;
    bool closed = false;
};

WorkGate::Pass::Pass(Pass&& other) noexcept : m_state(std::exchange(other.m_state, nullptr)) {}

WorkGate::Pass& WorkGate::Pass::operator=(Pass&& other) noexcept
{
    if (this != &other) {
        release();
        m_state = std::exchange(other.m_state, nullptr);
    }
    return *this;
}

void WorkGate::Pass::release()
{
    if (!m_state) return;
    const std::shared_ptr<State> state = std::exchange(m_state, nullptr);
    std::lock_guard lock(state->mutex);
    if (--state->held == 0) state->released.notify_all();
}

WorkGate::Pass WorkGate::Door::enter() const
{
    std::lock_guard lock(m_state->mutex);
    if (m_state->closed) return {};
    ++m_state->held;
    return Pass(m_state);
}

WorkGate::WorkGate() : m_state(std::make_shared<State>()) {}

void WorkGate::close()
{
    std::unique_lock lock(m_state->mutex);
    m_state->closed = true;
    m_state->released.wait(lock, [&] { return m_state->held == 0; });
}

std::size_t WorkGate::held() const
{
    std::lock_guard lock(m_state->mutex);
    return m_state->held;
}

} // namespace lv::core

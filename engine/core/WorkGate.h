// Lets work outlive the call that started it, and the object it works on wait for it when that object goes.
#pragma once

#include <cstddef>
#include <memory>

namespace lv::core {

// The owner (a recording) holds a gate as its last member, so the gate closes first when the owner is destroyed:
// close() refuses new passes and waits for the passes held. Work that may run on after its caller returned (a
// helper still decoding for a read another thread finished) enters through a Door, copied when it was handed out,
// before it touches the owner, and stops, touching nothing, when it gets no pass.
class WorkGate {
    struct State;

public:
    class Pass {
    public:
        Pass() = default;
        Pass(Pass&& other) noexcept;
        Pass& operator=(Pass&& other) noexcept;
        Pass(const Pass&) = delete;
        Pass& operator=(const Pass&) = delete;
        ~Pass() { release(); }
        explicit operator bool() const { return m_state != nullptr; }

    private:
        friend class WorkGate;
        explicit Pass(std::shared_ptr<State> state) : m_state(std::move(state)) {}
        void release();
        std::shared_ptr<State> m_state;
    };

    // Where passes are had; copyable, valid after the gate is gone (it then gives no pass).
    class Door {
    public:
        Pass enter() const;

    private:
        friend class WorkGate;
        explicit Door(std::shared_ptr<State> state) : m_state(std::move(state)) {}
        std::shared_ptr<State> m_state;
    };

    WorkGate();
    ~WorkGate() { close(); }
    WorkGate(const WorkGate&) = delete;
    WorkGate& operator=(const WorkGate&) = delete;

    Door door() const { return Door(m_state); }
    // Refuses new passes, then waits until every pass held is released. Idempotent.
    void close();
    std::size_t held() const;

private:
    std::shared_ptr<State> m_state;
};

} // namespace lv::core

// Output that appears whole or not at all: written to a locked temporary beside the target, moved on commit.
#pragma once

#include "core/Error.h"
#include "io/Temporary.h"

#include <cstdint>
#include <future>
#include <memory>
#include <string>
#include <string_view>

namespace lv::io {

class AtomicFile {
public:
    AtomicFile() = default;
    ~AtomicFile(); // removes the temporary file unless committed
    AtomicFile(const AtomicFile&) = delete;
    AtomicFile& operator=(const AtomicFile&) = delete;

    // Creates the locked temporary "<target>.tmp-<pid>-<n>" in the target's directory (Temporary), after
    // removing what killed writers to that target left.
    core::Status open(const std::string& target);
    // Appends `bytes` (gathered into 8 MiB pieces). Pieces go to the disk directly (O_DIRECT: no page-cache copy,
    // whose cost is the bulk of writing a large output) where the file system allows it, else through the page
    // cache with their disk writes started as they go, so that the sync at the end waits for little. A full piece
    // is written behind, on a thread of its own, while the next one fills (one write in flight; its failure is
    // returned by the next write or by finish()).
    core::Status write(std::string_view bytes);
    // Flushes, syncs to disk and closes the temporary (no more writes), without moving it: outputs that belong
    // together are all finished before any of them is committed.
    core::Status finish();
    // finish() unless done, then moves the file to the target unless one exists by then (an Io error
    // "the output already exists; choose a new name"; the temporary is removed).
    core::Status commit();
    const std::string& target() const { return m_target; }
    // Whether the pieces went to the disk directly; asked after finish() (a piece written behind may still change it).
    bool direct() const { return m_direct; }

private:
    struct FreeAligned {
        void operator()(char* p) const;
    };
    core::Error failure(const std::string& what, const SystemError& e) const;
    core::Status flushPiece(bool last);
    core::Status writePiece(char* piece, std::size_t filled, std::uint64_t at);
    core::Status waitPending();
    void stopDirect();

    static constexpr std::size_t kPieceBytes = std::size_t{8} << 20; // a multiple of every block size
    static constexpr std::size_t kAlign = 4096;
    std::string m_target;
    Temporary m_temp;
    NativeFile m_file;                            // our own handle on the temporary (m_temp's holds the lock)
    std::unique_ptr<char[], FreeAligned> m_piece; // kPieceBytes, aligned to kAlign
    std::unique_ptr<char[], FreeAligned> m_spare; // the piece being written behind (allocated at the first)
    std::future<core::Status> m_pending;          // the write behind, if any (waited for before m_file is used)
    std::size_t m_filled = 0;                     // bytes of m_piece in use
    std::uint64_t m_written = 0;                  // bytes of the file before m_piece
    bool m_direct = false;
    bool m_finished = false;
    bool m_committed = false;
};

} // namespace lv::io

// Writes a file as a short header and one zstd frame compressed from pieces handed in order, into a temporary
// file beside the target that is renamed over it at the end: neither the content nor the file is held whole.
#pragma once

#include "core/Error.h"
#include "io/WritableFile.h"

#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

struct ZSTD_CCtx_s;

namespace lv::cache {

class ZstdFileWriter {
public:
    // Starts "<path>.tmp-<pid>" with `header`; the frame is compressed at `level` with a content checksum.
    static core::Result<std::unique_ptr<ZstdFileWriter>> create(const std::string& path,
                                                                std::span<const std::uint8_t> header, int level);
    ~ZstdFileWriter(); // removes the temporary file unless committed
    ZstdFileWriter(const ZstdFileWriter&) = delete;
    ZstdFileWriter& operator=(const ZstdFileWriter&) = delete;

    core::Status write(std::span<const std::uint8_t> bytes);
    // Ends the frame, closes the file and renames it over the target (not synced: a cache file).
    core::Status commit();

private:
    ZstdFileWriter() = default;
    core::Status compress(bool end);

    io::WritableFile m_file;
    std::string m_path, m_temp;
    std::uint64_t m_at = 0;
    ZSTD_CCtx_s* m_context = nullptr;
    std::vector<std::uint8_t> m_in, m_out;
    std::size_t m_inUsed = 0;
    bool m_committed = false;
};

} // namespace lv::cache

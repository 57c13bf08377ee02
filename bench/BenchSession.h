// A synthetic MEF 3.0 session for session-level benchmarks, written once and cached under /tmp/longview-bench/.
#pragma once

#include "core/RecordingInfo.h"

#include <cstdint>
#include <string>
#include <vector>

namespace lv::bench {

struct SessionSpec {
    int channels = 16;
    double seconds = 2 * 3600.0;
    double fs = 256.0;
    double uvPerCount = 0.1;
    double blockSeconds = 10.0;

    // Directory name under the cache root that identifies these parameters and the writer/signal version
    // (bump the version in key() whenever the writer or eegMicrovolts changes, or stale sessions are reused).
    std::string key() const;
};

struct BenchSession {
    SessionSpec spec;
    std::string path;                   // the .mefd directory
    std::vector<std::string> dataFiles; // every .tdat, channel by channel
    std::int64_t samplesPerChannel = 0;
    std::vector<std::uint64_t> channelHashes; // FNV-1a over each channel's int32 samples, as written
};

// FNV-1a 64-bit over the little-endian bytes of `samples`, continuing from `hash`.
std::uint64_t hashSamples(const std::int32_t* samples, std::size_t count, std::uint64_t hash = 0xcbf29ce484222325ull);

// The cached session for `spec`, written first (to a temporary directory, then renamed) when absent.
// Aborts with a message when it cannot be written.
BenchSession ensureSession(const SessionSpec& spec);

// [start, end) of the recording cut into consecutive ranges of `seconds` (the last one shorter).
std::vector<core::TimeRange> timeChunks(const core::RecordingInfo& info, double seconds);

// Opens the session with openMef3 and decodes all of it with readRange, comparing against the hashes.
// Aborts with a message on any mismatch. Also warms the page cache.
void verifySession(const BenchSession& session);

} // namespace lv::bench

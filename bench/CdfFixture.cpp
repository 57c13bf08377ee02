// A CDF 3 writer for benchmark inputs: records appended in order, offsets patched once known.
#include "CdfFixture.h"

#include "EegSignal.h"

#include <libdeflate.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <vector>

namespace lv::bench {

namespace {

class Builder {
public:
    std::vector<std::uint8_t> bytes;

    std::size_t begin(std::int32_t type) // a record: its size patched by end()
    {
        const std::size_t at = bytes.size();
        i64(0);
        i32(type);
        return at;
    }
    void end(std::size_t record) { patch64(record, static_cast<std::int64_t>(bytes.size() - record)); }
    void i32(std::int32_t v)
    {
        for (int s = 24; s >= 0; s -= 8) bytes.push_back(static_cast<std::uint8_t>(static_cast<std::uint32_t>(v) >> s));
    }
    void i64(std::int64_t v)
    {
        for (int s = 56; s >= 0; s -= 8) bytes.push_back(static_cast<std::uint8_t>(static_cast<std::uint64_t>(v) >> s));
    }
    std::size_t slot() // an 8-byte offset patched later
    {
        i64(0);
        return bytes.size() - 8;
    }
    void patch64(std::size_t at, std::int64_t v)
    {
        for (int k = 0; k < 8; ++k)
            bytes[at + static_cast<std::size_t>(k)] =
                static_cast<std::uint8_t>(static_cast<std::uint64_t>(v) >> (56 - 8 * k));
    }
    void text(const std::string& s, std::size_t size)
    {
        for (std::size_t k = 0; k < size; ++k) bytes.push_back(k < s.size() ? static_cast<std::uint8_t>(s[k]) : 0);
    }
    std::int64_t here() const { return static_cast<std::int64_t>(bytes.size()); }
};

constexpr std::int32_t kTt2000 = 33, kReal4 = 21, kInt2 = 2, kChar = 51;

// Little-endian values of records [first, first + n) from each component's signal.
std::vector<std::uint8_t> values(const CdfSpec& spec, const std::vector<std::vector<double>>& signal,
                                 std::int64_t first, std::int64_t n)
{
    std::vector<std::uint8_t> out;
    for (std::int64_t r = first; r < first + n; ++r)
        for (int k = 0; k < spec.components; ++k) {
            const double x = signal[static_cast<std::size_t>(k)][static_cast<std::size_t>(r)];
            if (spec.integers) {
                const auto c = static_cast<std::int16_t>(std::lround(std::clamp(x * 10.0, -32767.0, 32767.0)));
                out.push_back(static_cast<std::uint8_t>(c));
                out.push_back(static_cast<std::uint8_t>(static_cast<std::uint16_t>(c) >> 8));
            } else {
                const float f = static_cast<float>(x);
                std::uint8_t b[4];
                std::memcpy(b, &f, 4);
                out.insert(out.end(), b, b + 4);
            }
        }
    return out;
}

std::vector<std::uint8_t> epochs(const CdfSpec& spec, std::int64_t first, std::int64_t n)
{
    std::vector<std::uint8_t> out;
    const std::int64_t start = 662774469184000000; // 2021-01-01T12:00:00 UTC in TT2000
    for (std::int64_t r = first; r < first + n; ++r) {
        const auto t = static_cast<std::uint64_t>(start + std::llround(static_cast<double>(r) * 1e9 / spec.rate));
        for (int k = 0; k < 8; ++k) out.push_back(static_cast<std::uint8_t>(t >> (8 * k)));
    }
    return out;
}

std::vector<std::uint8_t> gzip(const std::vector<std::uint8_t>& in)
{
    libdeflate_compressor* c = libdeflate_alloc_compressor(6);
    std::vector<std::uint8_t> out(libdeflate_gzip_compress_bound(c, in.size()));
    out.resize(libdeflate_gzip_compress(c, in.data(), in.size(), out.data(), out.size()));
    libdeflate_free_compressor(c);
    return out;
}

} // namespace

std::string CdfSpec::key() const
{
    return "cdf-" + std::to_string(variables) + "x" + std::to_string(components) + (integers ? "i16" : "f32") + "-" +
           std::to_string(records) + "r-" + std::to_string(recordsPerLeaf) + (gzip ? "-gzip" : "");
}

void writeCdf(const CdfSpec& spec, const std::string& path)
{
    Builder b;
    b.i32(static_cast<std::int32_t>(0xCDF30001u));
    b.i32(0x0000FFFF);
    const std::size_t cdr = b.begin(1); // CDR
    const std::size_t gdrSlot = b.slot();
    for (std::int32_t v : {3, 9, 6, 3, 0, 0, 0, 0, -1}) b.i32(v); // version 3.9.0, IBMPC, row major, single file
    b.text("Longview benchmark fixture", 256);
    b.end(cdr);
    b.patch64(gdrSlot, b.here());
    const std::size_t gdr = b.begin(2); // GDR
    const std::size_t zHead = (b.i64(0), b.slot()), adrHead = b.slot();
    b.slot(); // eof
    const int vars = spec.variables + 1;
    for (std::int32_t v : {0, 1, -1, 0, vars}) b.i32(v);
    b.i64(0);
    for (std::int32_t v : {0, 20170101, -1}) b.i32(v);
    b.end(gdr);
    // VDRs: the epoch (number 0), then the values.
    std::vector<std::size_t> vxrSlots, cprSlots;
    std::size_t next = zHead;
    for (int v = 0; v < vars; ++v) {
        b.patch64(next, b.here());
        const std::size_t vdr = b.begin(8);
        next = b.slot();
        b.i32(v == 0 ? kTt2000 : spec.integers ? kInt2 : kReal4);
        b.i32(static_cast<std::int32_t>(spec.records - 1));
        vxrSlots.push_back(b.slot());
        b.slot(); // VXRtail
        const bool packed = spec.gzip && v > 0;
        b.i32(packed ? 5 : 1);
        for (std::int32_t x : {0, 0, -1, -1, 1, v}) b.i32(x);
        cprSlots.push_back(b.slot());
        b.i32(0);
        b.text(v == 0 ? "Epoch" : "B" + std::to_string(v), 256);
        const bool vector = v > 0 && spec.components > 1;
        b.i32(vector ? 1 : 0);
        if (vector) {
            b.i32(spec.components);
            b.i32(-1);
        }
        b.end(vdr);
        if (!packed) b.patch64(cprSlots.back(), -1);
    }
    // DEPEND_0 of every value variable: "Epoch".
    b.patch64(adrHead, b.here());
    const std::size_t adr = b.begin(4);
    b.i64(0);
    b.i64(0);
    for (std::int32_t x : {2, 0, 0, -1, 0}) b.i32(x);
    const std::size_t zEntries = b.slot();
    b.i32(spec.variables);
    b.i32(vars - 1);
    b.i32(-1);
    b.text("DEPEND_0", 256);
    b.end(adr);
    std::size_t entry = zEntries;
    for (int v = 1; v < vars; ++v) {
        b.patch64(entry, b.here());
        const std::size_t e = b.begin(9);
        entry = b.slot();
        for (std::int32_t x : {0, kChar, v, 5, 1, 0, 0, -1, -1}) b.i32(x);
        b.text("Epoch", 5);
        b.end(e);
    }
    // A VXR per variable, then its leaves.
    const std::int64_t leaves = (spec.records + spec.recordsPerLeaf - 1) / spec.recordsPerLeaf;
    for (int v = 0; v < vars; ++v) {
        const bool packed = spec.gzip && v > 0;
        if (packed) {
            b.patch64(cprSlots[static_cast<std::size_t>(v)], b.here());
            const std::size_t cpr = b.begin(11);
            for (std::int32_t x : {5, 0, 1, 6}) b.i32(x);
            b.end(cpr);
        }
        b.patch64(vxrSlots[static_cast<std::size_t>(v)], b.here());
        const std::size_t vxr = b.begin(6);
        b.i64(0);
        b.i32(static_cast<std::int32_t>(leaves));
        b.i32(static_cast<std::int32_t>(leaves));
        for (std::int64_t l = 0; l < leaves; ++l) b.i32(static_cast<std::int32_t>(l * spec.recordsPerLeaf));
        for (std::int64_t l = 0; l < leaves; ++l)
            b.i32(static_cast<std::int32_t>(std::min(spec.records, (l + 1) * spec.recordsPerLeaf) - 1));
        std::vector<std::vector<double>> signal;
        for (int k = 0; v > 0 && k < spec.components; ++k)
            signal.push_back(eegMicrovolts(static_cast<std::size_t>(spec.records), spec.rate,
                                           static_cast<std::uint64_t>(v * 16 + k)));
        std::vector<std::size_t> offsets;
        for (std::int64_t l = 0; l < leaves; ++l) offsets.push_back(b.slot());
        b.end(vxr);
        for (std::int64_t l = 0; l < leaves; ++l) {
            const std::int64_t first = l * spec.recordsPerLeaf, n = std::min(spec.recordsPerLeaf, spec.records - first);
            const auto data = v == 0 ? epochs(spec, first, n) : values(spec, signal, first, n);
            b.patch64(offsets[static_cast<std::size_t>(l)], b.here());
            if (packed) {
                const auto z = gzip(data);
                const std::size_t cvvr = b.begin(13);
                b.i32(0);
                b.i64(static_cast<std::int64_t>(z.size()));
                b.bytes.insert(b.bytes.end(), z.begin(), z.end());
                b.end(cvvr);
            } else {
                const std::size_t vvr = b.begin(7);
                b.bytes.insert(b.bytes.end(), data.begin(), data.end());
                b.end(vvr);
            }
        }
    }
    b.patch64(gdr + 12 + 24, b.here()); // eof
    const std::string tmp = path + ".tmp";
    std::ofstream out(tmp, std::ios::binary);
    out.write(reinterpret_cast<const char*>(b.bytes.data()), static_cast<std::streamsize>(b.bytes.size()));
    out.close();
    if (!out) {
        std::fprintf(stderr, "cannot write %s\n", tmp.c_str());
        std::abort();
    }
    std::filesystem::rename(tmp, path);
}

std::string ensureCdf(const CdfSpec& spec)
{
    const char* dir = std::getenv("LONGVIEW_BENCH_DIR");
    const std::filesystem::path folder = dir ? dir : std::filesystem::temp_directory_path() / "longview-bench";
    std::filesystem::create_directories(folder);
    const std::string path = (folder / (spec.key() + ".cdf")).string();
    if (!std::filesystem::exists(path)) writeCdf(spec, path);
    return path;
}

} // namespace lv::bench

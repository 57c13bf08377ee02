// A variable's records and values.
#include "formats/cdf/CdfValues.h"

#include "formats/cdf/CdfCompression.h"
#include "formats/cdf/CdfLoad.h"
#include "formats/cdf/CdfTime.h"
#include "formats/cdf/CdfTimeKernels.h"

#include <algorithm>
#include <bit>
#include <cstring>

namespace lv::formats::cdf {

namespace {

template <typename T>
T load(const std::uint8_t* p, ByteOrder order)
{
    const bool swap = (order == ByteOrder::Big) == (std::endian::native == std::endian::little);
    return swap ? loadAs<T, true>(p) : loadAs<T, false>(p);
}

LeafCache::Bytes inflateLeaf(const io::ByteSource& image, const Variable& v, const Leaf& leaf, core::Status& status)
{
    auto stored = image.read(leaf.dataAt, leaf.dataSize);
    if (!stored) {
        status = stored.error();
        return nullptr;
    }
    auto bytes = std::make_shared<std::vector<std::uint8_t>>(static_cast<std::size_t>(leaf.last - leaf.first + 1) *
                                                             v.recordBytes());
    const std::int64_t held =
        std::min<std::int64_t>(leaf.last, std::max<std::int64_t>(v.maxRec, leaf.first)) - leaf.first + 1;
    status = inflate(v.compression, *stored, *bytes, static_cast<std::size_t>(held) * v.recordBytes(), image.path(),
                     leaf.dataAt);
    return status.ok() ? bytes : nullptr;
}

} // namespace

LeafCache::Bytes LeafCache::find(std::uint64_t offset)
{
    std::lock_guard lock(m_mutex);
    for (auto it = m_leaves.begin(); it != m_leaves.end(); ++it)
        if (it->first == offset) {
            m_leaves.splice(m_leaves.begin(), m_leaves, it);
            return it->second;
        }
    return nullptr;
}

void LeafCache::keep(std::uint64_t offset, Bytes bytes)
{
    std::lock_guard lock(m_mutex);
    m_bytes += bytes->size();
    m_leaves.emplace_front(offset, std::move(bytes));
    while (m_bytes > m_budget && m_leaves.size() > 1) {
        m_bytes -= m_leaves.back().second->size();
        m_leaves.pop_back();
    }
}

core::Status readRecords(const io::ByteSource& image, const Variable& v, std::int64_t first, std::int64_t count,
                         std::span<std::uint8_t> out, std::span<std::uint8_t> held, LeafCache* cache)
{
    const std::size_t size = v.recordBytes();
    std::fill(held.begin(), held.end(), std::uint8_t{0});
    const std::int64_t end = first + count;
    auto it = std::partition_point(v.leaves.begin(), v.leaves.end(), [&](const Leaf& l) { return l.last < first; });
    for (; it != v.leaves.end() && it->first < end; ++it) {
        const std::int64_t from = std::max(first, it->first), to = std::min(end, it->last + 1);
        const auto skip = static_cast<std::size_t>(from - it->first) * size;
        const auto bytes = static_cast<std::size_t>(to - from) * size;
        std::uint8_t* dest = out.data() + static_cast<std::size_t>(from - first) * size;
        if (!it->compressed) {
            LV_TRY(image.readAt(it->dataAt + skip, std::span<std::uint8_t>(dest, bytes)));
        } else {
            LeafCache::Bytes leaf = cache ? cache->find(it->offset) : nullptr;
            if (!leaf) {
                core::Status status;
                leaf = inflateLeaf(image, v, *it, status);
                LV_TRY(status);
                if (cache) cache->keep(it->offset, leaf);
            }
            std::memcpy(dest, leaf->data() + skip, bytes);
        }
        std::fill(held.begin() + (from - first), held.begin() + (to - first), std::uint8_t{1});
    }
    return {};
}

std::size_t storedIndex(const Variable& v, bool rowMajor, std::size_t index)
{
    if (rowMajor) return index;
    std::vector<std::size_t> sizes; // the varying dimensions
    for (std::size_t d = 0; d < v.dims.size(); ++d)
        if (v.dimVarys[d]) sizes.push_back(static_cast<std::size_t>(v.dims[d]));
    std::size_t stored = 0, stride = 1, rest = index;
    std::vector<std::size_t> at(sizes.size());
    for (std::size_t d = sizes.size(); d-- > 0;) {
        at[d] = rest % sizes[d];
        rest /= sizes[d];
    }
    for (std::size_t d = 0; d < sizes.size(); ++d) {
        stored += at[d] * stride;
        stride *= sizes[d];
    }
    return stored;
}

double numberAt(std::int32_t type, ByteOrder order, const std::uint8_t* p)
{
    switch (type) {
    case kInt1:
    case kByte:
        return static_cast<double>(static_cast<std::int8_t>(p[0]));
    case kUint1:
        return static_cast<double>(p[0]);
    case kInt2:
        return load<std::int16_t>(p, order);
    case kUint2:
        return load<std::uint16_t>(p, order);
    case kInt4:
        return load<std::int32_t>(p, order);
    case kUint4:
        return load<std::uint32_t>(p, order);
    case kInt8:
        return static_cast<double>(load<std::int64_t>(p, order));
    case kReal4:
    case kFloat:
        return load<float>(p, order);
    case kReal8:
    case kDouble:
    case kEpoch:
        return load<double>(p, order);
    case kTimeTt2000:
        return static_cast<double>(load<std::int64_t>(p, order));
    default:
        return 0.0;
    }
}

void numbersAt(std::int32_t type, ByteOrder order, const std::uint8_t* p, std::size_t stride, std::size_t count,
               double* out)
{
    for (std::size_t i = 0; i < count; ++i) out[i] = numberAt(type, order, p + i * stride);
}

void epochsAt(std::int32_t type, ByteOrder order, const std::uint8_t* p, std::size_t stride, std::size_t count,
              std::int64_t* out)
{
    if (type == kEpoch16) {
        for (std::size_t i = 0; i < count; ++i)
            out[i] = epoch16ToUnixNs(load<double>(p + i * stride, order), load<double>(p + i * stride + 8, order));
        return;
    }
    constexpr std::size_t kChunk = 1024;
    for (std::size_t at = 0; at < count; at += kChunk) {
        const std::size_t n = std::min(kChunk, count - at);
        if (type == kTimeTt2000) {
            std::int64_t native[kChunk];
            for (std::size_t i = 0; i < n; ++i) native[i] = load<std::int64_t>(p + (at + i) * stride, order);
            timeKernels().tt2000(native, n, out + at);
        } else {
            double native[kChunk];
            for (std::size_t i = 0; i < n; ++i) native[i] = load<double>(p + (at + i) * stride, order);
            timeKernels().epoch(native, n, out + at);
        }
    }
}

std::string entryText(const Entry& e)
{
    if (!isText(e.type)) return {};
    std::string s(e.value.begin(), e.value.end());
    while (!s.empty() && (s.back() == '\0' || s.back() == ' ')) s.pop_back();
    return s;
}

std::optional<double> entryNumber(const Entry& e, ByteOrder order, std::int32_t asType)
{
    if (isText(e.type) || e.numElems < 1 || e.value.size() < typeSize(e.type)) return std::nullopt;
    if (e.type == kEpoch16) return std::nullopt;
    const double v = numberAt(e.type, order, e.value.data());
    if (asType == kReal4 || asType == kFloat) return static_cast<double>(static_cast<float>(v));
    return v;
}

} // namespace lv::formats::cdf

// The JSON of Zarr v2 and v3 nodes.
#include "convert/ZarrMetadata.h"

namespace lv::convert {

namespace {

nlohmann::json fillOf(const ZarrArray& a) { return zarrIsFloat(a.dtype) ? nlohmann::json("NaN") : nlohmann::json(0); }

std::string v2Dtype(const std::string& dtype)
{
    if (dtype == "uint8") return "|u1";
    const char kind = dtype[0] == 'f' ? 'f' : 'i';
    return std::string("<") + kind + std::to_string(zarrItemSize(dtype));
}

} // namespace

std::size_t zarrItemSize(const std::string& dtype)
{
    if (dtype == "uint8") return 1;
    if (dtype == "int16") return 2;
    if (dtype == "int32" || dtype == "float32") return 4;
    return 8;
}

bool zarrIsFloat(const std::string& dtype) { return dtype == "float32" || dtype == "float64"; }

nlohmann::json zarrV2Array(const ZarrArray& a)
{
    return {{"zarr_format", 2},
            {"shape", {a.length}},
            {"chunks", {a.chunk}},
            {"dtype", v2Dtype(a.dtype)},
            {"compressor", {{"id", "zstd"}, {"level", a.level}}},
            {"fill_value", fillOf(a)},
            {"order", "C"},
            {"filters", nullptr},
            {"dimension_separator", "."}};
}

nlohmann::json zarrV3Array(const ZarrArray& a)
{
    return {{"zarr_format", 3},
            {"node_type", "array"},
            {"shape", {a.length}},
            {"data_type", a.dtype},
            {"chunk_grid", {{"name", "regular"}, {"configuration", {{"chunk_shape", {a.chunk}}}}}},
            {"chunk_key_encoding", {{"name", "default"}, {"configuration", {{"separator", "/"}}}}},
            {"fill_value", fillOf(a)},
            {"codecs",
             {{{"name", "bytes"}, {"configuration", {{"endian", "little"}}}},
              {{"name", "zstd"}, {"configuration", {{"level", a.level}, {"checksum", false}}}}}},
            {"attributes", a.attributes},
            {"dimension_names", {a.dimension}}};
}

nlohmann::json zarrV3Group(const nlohmann::json& attributes)
{
    return {{"zarr_format", 3}, {"node_type", "group"}, {"attributes", attributes}};
}

std::string zarrChunkKey(int version, std::int64_t k)
{
    return version == 3 ? "c/" + std::to_string(k) : std::to_string(k);
}

std::string zarrNodeName(const std::string& name)
{
    std::string out = name;
    for (char& c : out)
        if (c == '/' || c == '\\') c = '_';
    if (out.empty() || out[0] == '.' || out.rfind("__", 0) == 0) out.insert(out.begin(), '_');
    return out;
}

} // namespace lv::convert

// The JSON of a Zarr store (v2: .zgroup/.zarray/.zattrs and consolidated .zmetadata; v3: zarr.json) for the 1-D
// arrays Longview writes, each with zstd chunks.
#pragma once

#include <nlohmann/json.hpp>

#include <cstdint>
#include <string>

namespace lv::convert {

// A 1-D array: `length` values of `dtype` ("int16", "int32", "int64", "uint8", "float32", "float64") in chunks of
// `chunk`, zstd at `level`; NaN fill for floats, else 0.
struct ZarrArray {
    std::string dtype;
    std::int64_t length = 0;
    std::int64_t chunk = 0;
    int level = 3;
    nlohmann::json attributes = nlohmann::json::object();
    std::string dimension; // the dimension's name (v3 dimension_names, v2 xarray's _ARRAY_DIMENSIONS)
};

std::size_t zarrItemSize(const std::string& dtype);
bool zarrIsFloat(const std::string& dtype);

// v2: the .zarray object ({"id":"zstd","level":N} only: numcodecs 0.11 refuses a "checksum" key).
nlohmann::json zarrV2Array(const ZarrArray& a);
// v3: the array's zarr.json (codecs: bytes little-endian, then zstd).
nlohmann::json zarrV3Array(const ZarrArray& a);
nlohmann::json zarrV3Group(const nlohmann::json& attributes);

// The key of chunk `k`: "k" (v2, "." separator) or "c/k" (v3 default encoding).
std::string zarrChunkKey(int version, std::int64_t k);

// A node name made of `name`: '/' and '\\' become '_', a name that starts with '.' or "__" or is empty gets a '_'
// in front (v2 keys and v3's reserved prefix).
std::string zarrNodeName(const std::string& name);

} // namespace lv::convert

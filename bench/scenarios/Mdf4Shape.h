// The MDF 4 file of asammdf's benchmark shape (183 data groups, 36,424 channels, about 170 MB of records), written
// once with our writer.
#pragma once

#include <string>

namespace lv::bench {

// `path` written unless it exists: 183 sorted data groups at 10 + g Hz for 21 s, 199 or 200 int16 channels each
// (synthetic EEG counts, 0.1 uV per count), transposed-deflate DZ (`compress`) or plain DT blocks.
void writeAsamShape(const std::string& path, bool compress);

} // namespace lv::bench

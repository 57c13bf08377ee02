// Conversion of any readable recording to a Zarr store (v2 or v3): the arrays data scientists open with zarr-python,
// xarray or zarrita.
#pragma once

#include "convert/Targets.h"
#include "core/Recording.h"

#include <string>

namespace lv::convert {

// Writes `selection` of `recording` as the Zarr store `output` (a folder, "OUT.zarr"): a root group whose attributes
// hold the source, start and end, and the annotations in the range; one 1-D array per channel, indexed by the
// channel's samples in the range (grid points, gaps included), in zstd chunks of 1 MiB. Values are the stored
// counts (int16 where every count fits 16 bits, else int32) with `scale_factor` and `add_offset` attributes
// (physical = count x scale_factor + add_offset, exact), and where a sample is missing (gaps, NaN runs) a companion
// uint8 array "<name>.mask" (1 where a sample exists); or with options.zarrValues float32/float64 physical values
// with NaN where a sample is missing. Irregular channels get "<name>.time" (int64 ns since 1970 UTC). Chunks with no
// sample are not written (they read as the fill value). Version 2 stores have consolidated metadata (.zmetadata).
// Chunks are compressed and written in parallel on the read's runner, a few at a time (bounded memory), in a
// temporary folder renamed to `output` at the end; an existing output is refused, nothing is left on failure or
// cancellation.
core::Result<ExportOutcome> exportZarr(core::Recording& recording, const Selection& selection,
                                       const TargetOptions& options, const std::string& output,
                                       const core::ReadControl& control);

} // namespace lv::convert

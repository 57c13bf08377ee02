// Selection by channel names and time arguments.
#include "convert/Selection.h"

#include "core/TimeFormat.h"

#include <sstream>

namespace lv::convert {

using core::ErrorCode;
using core::makeError;

namespace {

core::Result<std::vector<std::size_t>> channelsNamed(const core::RecordingInfo& info, const std::string& names)
{
    std::vector<std::size_t> channels;
    if (names.empty()) {
        for (std::size_t i = 0; i < info.channels.size(); ++i) channels.push_back(i);
        return channels;
    }
    std::stringstream list(names);
    for (std::string name; std::getline(list, name, ',');) {
        const int index = info.channelIndex(name);
        if (index < 0) {
            std::string message = "no channel \"" + name + "\" (channels: ";
            for (std::size_t c = 0; c < info.channels.size(); ++c) {
                if (c > 0) message += ", ";
                message += info.channels[c].name;
            }
            message += ")";
            return makeError(ErrorCode::InvalidArgument, message);
        }
        channels.push_back(static_cast<std::size_t>(index));
    }
    return channels;
}

} // namespace

core::Result<Selection> resolveSelection(const core::RecordingInfo& info, const SelectionRequest& request)
{
    Selection selection;
    auto channels = channelsNamed(info, request.channels);
    if (!channels) return channels.error();
    selection.channels = std::move(*channels);
    selection.range = {info.start, info.end};
    for (auto [text, target] :
         {std::pair{&request.start, &selection.range.start}, std::pair{&request.end, &selection.range.end}}) {
        if (text->empty()) continue;
        auto t = core::parseTimeArgument(*text, info.start);
        if (!t) return t.error();
        *target = *t;
    }
    if (info.end < info.start) // the file's own span: damage the reader let through, not the options
        return makeError(ErrorCode::Corrupt,
                         "the recording ends (" + core::formatIso(info.end) + ") before it starts (" +
                             core::formatIso(info.start) + ")",
                         info.path);
    if (selection.range.end < selection.range.start)
        return makeError(ErrorCode::InvalidArgument, "--end lies before --start");
    return selection;
}

} // namespace lv::convert

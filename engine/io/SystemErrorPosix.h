// errno to SystemError, for the POSIX half of the platform layer.
#pragma once

#include "io/SystemError.h"

#include <cerrno>
#include <cstring>

namespace lv::io {

inline SystemError posixError(int error)
{
    using K = SystemError::Kind;
    K kind = K::Other;
    switch (error) {
    case 0:
        return {};
    case ENOENT:
        kind = K::NotFound;
        break;
    case EEXIST:
    case ENOTEMPTY:
        kind = K::Exists;
        break;
    case ENOSPC:
    case EFBIG:
    case EDQUOT:
        kind = K::NoSpace;
        break;
    case EINVAL:
    case ENOSYS:
    case ENOTSUP:
#if EOPNOTSUPP != ENOTSUP
    case EOPNOTSUPP:
#endif
    case EXDEV:
        kind = K::Unsupported;
        break;
    case EPERM:
    case EACCES:
    case EROFS:
        kind = K::NotPermitted;
        break;
    case ELOOP:
        kind = K::LinkLoop;
        break;
    default:
        break;
    }
    return {kind, std::strerror(error)};
}

inline SystemError lastPosixError() { return posixError(errno); }

} // namespace lv::io

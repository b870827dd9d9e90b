// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/peerliveness.h"

#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>

bool PeerLiveness::applyTo(int fd, const Timing& timing, bool keepalives, bool userTimeout)
{
    sockaddr_storage address {};
    socklen_t length = sizeof address;
    if (getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0)
        return false;
    if (address.ss_family != AF_INET && address.ss_family != AF_INET6)
        return true;
    const int on = 1;
    const int idle = timing.keepaliveIdleSeconds;
    const int interval = timing.keepaliveIntervalSeconds;
    const int count = timing.keepaliveCount;
    const unsigned timeout = timing.userTimeoutMs;
    if (keepalives
        && (setsockopt(fd, SOL_SOCKET, SO_KEEPALIVE, &on, sizeof on) != 0
            || setsockopt(fd, IPPROTO_TCP, TCP_KEEPIDLE, &idle, sizeof idle) != 0
            || setsockopt(fd, IPPROTO_TCP, TCP_KEEPINTVL, &interval, sizeof interval) != 0
            || setsockopt(fd, IPPROTO_TCP, TCP_KEEPCNT, &count, sizeof count) != 0))
        return false;
    return !userTimeout || setsockopt(fd, IPPROTO_TCP, TCP_USER_TIMEOUT, &timeout, sizeof timeout) == 0;
}

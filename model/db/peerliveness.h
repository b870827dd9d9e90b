// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// How every long-lived connection to a server (PostgreSQL, RabbitMQ) finds out that its peer vanished without a
// reset (a cut cable, a dead host, a blackholed route): keepalive probes after some seconds of silence, and a TCP
// user timeout that ends the connection once some more pass without an acknowledgement of a probe or of data sent
// (keepalives alone would not cover a statement or a publish sent into the void). Without them the kernel
// waits two hours, and a read never returns.
namespace PeerLiveness {

struct Timing {
    int keepaliveIdleSeconds;
    int keepaliveIntervalSeconds;
    int keepaliveCount;
    unsigned userTimeoutMs;
};

// A database session: probes after 5 s of silence, every 2 s; given up after 10 s without an acknowledgement.
constexpr Timing Database { 5, 2, 3, 10'000 };
// A broker connection gives up sooner (probes after 2 s, every second; 3 s without an acknowledgement): another
// node of the cluster takes the publishes at once, the rows of a publish wait leased meanwhile, and a connection
// to a broker costs little to open again.
constexpr Timing Broker { 2, 1, 3, 3'000 };

constexpr int KeepaliveIdleSeconds = Database.keepaliveIdleSeconds;
constexpr int KeepaliveIntervalSeconds = Database.keepaliveIntervalSeconds;
constexpr int KeepaliveCount = Database.keepaliveCount;
constexpr unsigned UserTimeoutMs = Database.userTimeoutMs;

// Applies the keepalives (if `keepalives`) and the user timeout (if `userTimeout`) of `timing` to the connected
// socket `fd`. Nothing for a Unix-domain socket; false if the kernel refused a TCP socket one (errno says why).
// While the user timeout is set, Linux ends a connection whose probes go unanswered for that long rather than after
// keepaliveCount of them.
bool applyTo(int fd, const Timing& timing = Database, bool keepalives = true, bool userTimeout = true);

} // namespace PeerLiveness

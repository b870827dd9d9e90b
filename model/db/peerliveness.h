// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

// How every long-lived connection to a server (PostgreSQL, RabbitMQ) finds out that its peer vanished without a
// reset (a cut cable, a dead host, a blackholed route): probes after 5 s of silence, every 2 s, and a TCP user
// timeout that ends the connection once 10 s pass without an acknowledgement of a probe or of data sent
// (keepalives alone would not cover a statement or a publish sent into the void). Without them the kernel
// waits two hours, and a read never returns.
namespace PeerLiveness {

constexpr int KeepaliveIdleSeconds = 5;
constexpr int KeepaliveIntervalSeconds = 2;
constexpr int KeepaliveCount = 3;
constexpr unsigned UserTimeoutMs = 10'000;

// Applies the keepalives (if `keepalives`) and the user timeout (if `userTimeout`) to the connected socket `fd`.
// Nothing for a Unix-domain socket; false if the kernel refused a TCP socket one (errno says why). While the user
// timeout is set, Linux ends a connection whose probes go unanswered for that long rather than after
// KeepaliveCount of them.
bool applyTo(int fd, bool keepalives = true, bool userTimeout = true);

} // namespace PeerLiveness

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

// Applies all of the above to the connected TCP socket `fd`; false if the kernel refused one.
bool applyTo(int fd);

} // namespace PeerLiveness

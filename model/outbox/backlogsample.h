// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QtGlobal>

// The unpublished backlog at one moment, as a relay samples it (every RelayOptions::backlogSampleMs).
struct BacklogSample {
    // Every process counts up to the same cap (the relays, orders-service, the console's Overview), so that their
    // figures of one database agree. A count costs in proportion to its cap (docs/benchmarks.md, "Relays through the
    // upgrade from schema 25").
    static constexpr int CountCap = 10'000;

    qint64 unpublished = 0; // pending + in_flight + failed, counted up to the cap
    bool capped = false;
    qint64 oldestUnpublishedAgeMs = 0;
};

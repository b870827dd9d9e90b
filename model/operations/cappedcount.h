// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QtGlobal>
#include <optional>

// A count read through an index up to a cap: exact below the cap, "cap+" at it. At the cap, where the planner's
// statistics know the table, also an estimate of the real number (never exact: it is as old as the last ANALYZE).
struct CappedCount {
    qint64 value = 0;
    bool capped = false;
    std::optional<qint64> estimate; // only when capped

    // `counted` rows read with a limit of cap + 1, so more than `cap` means the cap was reached. `atLeast`: the rows
    // were read within a budget that ran out before they did (the log's backlog), so the count is a lower bound.
    static CappedCount of(qint64 counted, qint64 cap, bool atLeast = false)
    {
        return CappedCount { qMin(counted, cap), atLeast || counted > cap, std::nullopt };
    }
};

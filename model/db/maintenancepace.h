// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QElapsedTimer>

// Paces maintenance that competes with the writers for the same cores, disk and WAL (a purge, a drop of detached
// partitions): after each step, one short transaction, it rests RestPerStepWork times as long as the step took, at
// most MaxRestMs, so that maintenance made of steps shorter than a third of a second works a quarter of the time it
// spans. Small steps (tests, a quiet service) rest next to nothing. Measured on 2 cores under 4 writing clients:
// taking a 1 M-row partition out and removing it in one statement each cost creates -26 %, paced -6 to -15 % (two
// runs); deleting 1 M expired idempotency keys unpaced cost claims of new keys -54 %, paced -19 %.
class MaintenancePace final {
public:
    static constexpr int RestPerStepWork = 3;
    static constexpr qint64 MaxRestMs = 1000;

    // Starts timing the first step.
    MaintenancePace();

    // Rests after the step that began with the constructor or with the last rest(), and starts timing the next.
    void rest();

private:
    QElapsedTimer m_step;
};

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QElapsedTimer>

// Paces maintenance that competes with the writers for the same cores, disk and WAL (a purge, a drop of detached
// partitions): after each step, one short transaction, it rests `restPerStepWork` times as long as the step took,
// at most MaxRestMs, so that maintenance made of short steps works 1 / (restPerStepWork + 1) of the time it spans.
// Small steps (tests, a quiet service) rest next to nothing. Each caller picks its factor from what it measured.
class MaintenancePace final {
public:
    static constexpr qint64 MaxRestMs = 1000;

    // Starts timing the first step.
    explicit MaintenancePace(int restPerStepWork);

    // Rests after the step that began with the constructor or with the last rest(), and starts timing the next.
    void rest();

private:
    QElapsedTimer m_step;
    int m_restPerStepWork;
};

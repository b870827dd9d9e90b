// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QtGlobal>

// The unpublished backlog at one moment, as a relay samples it (every RelayOptions::backlogSampleMs).
struct BacklogSample {
    qint64 unpublished = 0; // pending + in_flight + failed, counted up to the cap
    bool capped = false;
    qint64 oldestUnpublishedAgeMs = 0;
};

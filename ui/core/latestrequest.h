// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QtGlobal>

// "Latest request wins", the one way the console drops stale results. A view takes a ticket whenever what it
// shows changes (another filter, row or time range) and hands the ticket to the background read; when the
// result comes back, it is used only if no later ticket was taken meanwhile. Several reads may share the
// current ticket (the pages of one listing).
class LatestRequest final {
public:
    // Makes every earlier ticket stale and returns the new one.
    quint64 next() { return ++m_latest; }
    quint64 current() const { return m_latest; }
    bool isLatest(quint64 ticket) const { return ticket == m_latest; }

private:
    quint64 m_latest = 0;
};

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <optional>

// Durations as operators type them: a whole number and a unit, e.g. "1500ms", "30s", "5m", "2h", "7d".
class Duration final {
public:
    // Milliseconds, or nullopt if `text` is not a duration.
    static std::optional<qint64> parseMs(const QString& text);
};

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>

// What an outbox message carries to its consumers besides its identity: the payload (any JSON value) and the
// headers (a JSON object), as JSON texts. Identity (event type, aggregate, dedupe and ordering keys) is not content:
// an edit never changes it.
struct MessageContent {
    QString payload;
    QString headers;

    bool operator==(const MessageContent&) const = default;
};

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <optional>

// Whether a text is one JSON value (an object, an array or a scalar), checked on the client so that an editor can
// say where the mistake is while the operator types. PostgreSQL has the last word: it refuses a few texts this
// accepts (e.g. \u0000 in a string), and this leaves numbers to it (Qt refuses one a double cannot hold, which jsonb
// keeps): an edit is checked by the server too before it is confirmed.
class JsonSyntax final {
public:
    struct Problem {
        enum class Kind { Empty, SeveralValues, Syntax };
        Kind kind = Kind::Syntax;
        int line = 0; // from 1, for Syntax
        int column = 0; // from 1, in characters (code points)
        QString reason; // for Syntax: Qt's words (QJsonParseError, translated with Qt's own catalogue)

        // In English, for the command line and the library's errors, e.g. "line 3, column 7: missing value
        // separator".
        QString text() const;
    };

    // nullopt when `text` is one JSON value.
    static std::optional<Problem> check(const QString& text);
};

// SPDX-License-Identifier: GPL-3.0-or-later
#include "idempotency/jsontext.h"

std::optional<qsizetype> JsonText::controlCharacterInString(QByteArrayView json)
{
    bool inString = false;
    for (qsizetype i = 0; i < json.size(); ++i) {
        const unsigned char c = static_cast<unsigned char>(json[i]);
        if (!inString) {
            inString = c == '"';
        } else if (c == '\\') {
            ++i; // the escaped character, a quote or a backslash included
        } else if (c == '"') {
            inString = false;
        } else if (c < 0x20) {
            return i;
        }
    }
    return std::nullopt;
}

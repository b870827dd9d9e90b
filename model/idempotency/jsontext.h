// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QByteArrayView>
#include <optional>

// What Qt's JSON parser lets through that JSON (RFC 8259) does not.
namespace JsonText {

// The offset of the first raw control character (U+0000 to U+001F) inside a string of `json`, if any: JSON allows
// them only escaped. Qt 6.4 accepts them, and an object whose keys hold some keeps its keys out of order, so that
// looking a key up may miss it and a key may appear twice.
std::optional<qsizetype> controlCharacterInString(QByteArrayView json);

} // namespace JsonText

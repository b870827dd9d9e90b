// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "db/outboxerror.h"

#include <QList>
#include <QString>
#include <QStringList>
#include <QStringView>
#include <QVariant>
#include <array>
#include <optional>
#include <utility>

// The one mapping between an enum and the names it has outside C++ (the database column, the command line,
// exports). Each status enum declares one table of these; nothing else spells the names.
template<typename Enum, std::size_t Count> class EnumNames final {
public:
    using Entry = std::pair<Enum, const char*>;

    constexpr explicit EnumNames(std::array<Entry, Count> entries)
        : m_entries(entries)
    { }

    QString name(Enum value) const
    {
        for (const Entry& entry : m_entries) {
            if (entry.first == value)
                return QString::fromLatin1(entry.second);
        }
        return {};
    }

    std::optional<Enum> parse(QStringView text) const
    {
        for (const Entry& entry : m_entries) {
            if (text == QLatin1String(entry.second))
                return entry.first;
        }
        return std::nullopt;
    }

    // A value read from the database, whose CHECK constraint allows only known names.
    Enum fromColumn(const QVariant& column) const
    {
        const QString text = column.toString();
        if (const std::optional<Enum> value = parse(text))
            return *value;
        throw OutboxError(OutboxError::Kind::Other,
            QStringLiteral("unexpected status '%1' in the database: is the schema newer than this program?").arg(text));
    }

    // The values of the names in `names` that this table knows, in the order given (a filter's checked names).
    QList<Enum> valuesNamed(const QStringList& names) const
    {
        QList<Enum> values;
        for (const QString& name : names) {
            if (const std::optional<Enum> value = parse(name))
                values.append(*value);
        }
        return values;
    }

    // In declaration order, which is the order lists and menus show them in.
    QList<Enum> values() const
    {
        QList<Enum> values;
        for (const Entry& entry : m_entries)
            values.append(entry.first);
        return values;
    }

    QStringList names() const
    {
        QStringList names;
        for (const Entry& entry : m_entries)
            names.append(QString::fromLatin1(entry.second));
        return names;
    }

    QStringList names(const QList<Enum>& values) const
    {
        QStringList names;
        for (Enum value : values)
            names.append(name(value));
        return names;
    }

private:
    std::array<Entry, Count> m_entries;
};

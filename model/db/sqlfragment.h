// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QString>
#include <QVariantList>

// A piece of SQL with '?' placeholders and the values bound to them, in the order they appear.
struct SqlFragment {
    QString sql;
    QVariantList binds;

    SqlFragment() = default;
    SqlFragment(QString text, QVariantList values = {}) // NOLINT(google-explicit-constructor): SQL reads as SQL
        : sql(std::move(text))
        , binds(std::move(values))
    { }

    SqlFragment& operator+=(const SqlFragment& other)
    {
        sql += other.sql;
        binds += other.binds;
        return *this;
    }
    friend SqlFragment operator+(SqlFragment left, const SqlFragment& right) { return left += right; }
};

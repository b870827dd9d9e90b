// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QPair>
#include <QString>

// The one reader and writer of libpq connection strings (URI or key=value), on libpq's own parser, so that
// what the programs accept is exactly what psql accepts.
class Conninfo final {
public:
    using Options = QList<QPair<QString, QString>>; // keyword -> value, in libpq's order

    struct Option {
        QString keyword;
        QString value;
        bool secret = false; // libpq marks passwords (password, sslpassword, ...) as not to be shown
    };

    // The keywords `conninfo` sets. Throws OutboxError(InvalidInput) naming the problem ("invalid DSN: ...").
    static QList<Option> parse(const QString& conninfo);
    // The same without the secrets, for what is shown or remembered.
    static Options parseWithoutSecrets(const QString& conninfo);

    // A key=value conninfo of `options`, every value quoted. Composing what parseWithoutSecrets returned gives
    // equal strings for equal connections, however they were written.
    static QString compose(const Options& options);
    static QString quoted(const QString& value);

    // "user@host:port/db" for lists and titles: what `options` sets, the rest as libpq would fill it in now.
    static QString displayName(const Options& options);
};

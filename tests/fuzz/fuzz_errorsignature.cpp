// SPDX-License-Identifier: GPL-3.0-or-later
// outbox_error_signature(), the SQL rule that groups failures (migration 0005), run by PostgreSQL itself: the
// server named by the libpq environment (run-fuzzers under pg_virtualenv). Three properties:
//   - a signature is a fixed point: signing it again changes nothing (the console filters and the groups compare
//     signatures as they are, so one that signing would still change is not a stable name for its group);
//   - texts that differ only in numbers, ids, hosts or quoted names have the same signature. The inputs are made
//     for it: words without quotes or blanks, and between them slots that get a different value of the same kind
//     in each of the two texts;
//   - texts that differ in a word of plain letters are signed apart: the two above could hold for a function that
//     signed every text alike, which would put every failure into one group.
// The function is created in this session's pg_temp from the newest migration that defines it, so any database
// the environment names will do; nothing is written to it.
#include "fuzzcheck.h"

#include <QDir>
#include <QFile>
#include <QRegularExpression>
#include <array>
#include <libpq-fe.h>

namespace {

PGconn* connection = nullptr;

[[noreturn]] void fail(const QByteArray& what)
{
    std::fprintf(stderr, "fuzz_errorsignature: %s\n", what.constData());
    std::exit(2);
}

QString newestDefinition()
{
    static const QRegularExpression definition(
        QStringLiteral(R"(CREATE (?:OR REPLACE )?FUNCTION outbox_error_signature\(.*?\n\$\$;)"),
        QRegularExpression::DotMatchesEverythingOption);
    QString newest;
    const QDir migrations(QStringLiteral(":/sql/migrations"));
    for (const QString& name : migrations.entryList(QDir::Files, QDir::Name)) {
        QFile file(migrations.filePath(name));
        if (!file.open(QIODevice::ReadOnly))
            fail("cannot read the migration " + name.toUtf8());
        for (const QRegularExpressionMatch& match : definition.globalMatch(QString::fromUtf8(file.readAll())))
            newest = match.captured();
    }
    if (newest.isEmpty())
        fail("no migration defines outbox_error_signature");
    return newest.replace(
        QStringLiteral("FUNCTION outbox_error_signature"), QStringLiteral("FUNCTION pg_temp.outbox_error_signature"));
}

void run(const QString& sql)
{
    PGresult* result = PQexec(connection, sql.toUtf8().constData());
    if (PQresultStatus(result) != PGRES_COMMAND_OK)
        fail(QByteArray(PQresultErrorMessage(result)));
    PQclear(result);
}

// The signatures of `texts` and, second, of the first one's signature, in one round trip.
std::array<QByteArray, 6> signatures(const std::array<QByteArray, 5>& texts)
{
    const char* values[5] = { texts[0].constData(), texts[1].constData(), texts[2].constData(), texts[3].constData(),
        texts[4].constData() };
    PGresult* result = PQexecPrepared(connection, "sign", 5, values, nullptr, nullptr, 0);
    if (PQresultStatus(result) != PGRES_TUPLES_OK)
        fail(QByteArray(PQresultErrorMessage(result)) + " for " + quotedForReport(QString::fromUtf8(texts[0])));
    std::array<QByteArray, 6> out;
    for (int i = 0; i < 6; ++i)
        out[size_t(i)] = QByteArray(PQgetvalue(result, 0, i));
    PQclear(result);
    return out;
}

// Characters of the words around the slots: anything printable but blanks (which separate words and slots) and
// quotes (a quote in a word could open a literal that ends inside a slot).
QByteArray word(FuzzedDataProvider& data)
{
    static const QByteArray alphabet(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789.,:;=()-_/[]<>@#%&*+!?~{}|^$\\");
    QByteArray out;
    for (const char c : data.ConsumeRandomLengthString(12))
        out += alphabet.at(static_cast<unsigned char>(c) % alphabet.size());
    return out;
}

// One to eight letters that are no hex digit: no rule reads such a word as a number, an id, a host or a name.
QByteArray plainWord(FuzzedDataProvider& data)
{
    static const QByteArray alphabet("ghijklmnopqrstuvwxyzGHIJKLMNOPQRSTUVWXYZ");
    QByteArray out;
    const int length = data.ConsumeIntegralInRange(1, 8);
    for (int i = 0; i < length; ++i)
        out += alphabet.at(data.ConsumeIntegralInRange<qsizetype>(0, alphabet.size() - 1));
    return out;
}

QByteArray hexDigits(FuzzedDataProvider& data, int count)
{
    QByteArray out;
    for (int i = 0; i < count; ++i)
        out += "0123456789abcdef"[data.ConsumeIntegralInRange(0, 15)];
    return out;
}

QByteArray number(FuzzedDataProvider& data)
{
    QByteArray out = QByteArray::number(data.ConsumeIntegral<quint64>() >> data.ConsumeIntegralInRange(0, 63));
    if (data.ConsumeBool())
        out += "." + QByteArray::number(data.ConsumeIntegralInRange(0, 999));
    return out;
}

// An id of the given kind: a UUID, a 0x number, a long hex string with a letter and a digit, or decimal.
QByteArray id(FuzzedDataProvider& data, int kind)
{
    switch (kind) {
    case 0:
        return hexDigits(data, 8) + "-" + hexDigits(data, 4) + "-" + hexDigits(data, 4) + "-" + hexDigits(data, 4) + "-"
            + hexDigits(data, 12);
    case 1:
        return "0x" + hexDigits(data, data.ConsumeIntegralInRange(1, 16));
    case 2:
        return "a" + hexDigits(data, data.ConsumeIntegralInRange(6, 30)) + "7";
    default:
        return QByteArray::number(data.ConsumeIntegral<quint64>());
    }
}

QByteArray port(FuzzedDataProvider& data)
{
    // Ports of two to five digits: the rule leaves "name:5" alone, as in "step:2".
    return ":" + QByteArray::number(data.ConsumeIntegralInRange(10, 65535));
}

// A host of the given kind: IPv4, IPv4 with a port, IPv6 in brackets (with or without a port), a name with a port.
QByteArray host(FuzzedDataProvider& data, int kind)
{
    const auto octet = [&] { return QByteArray::number(data.ConsumeIntegralInRange(0, 255)); };
    switch (kind) {
    case 0:
        return octet() + "." + octet() + "." + octet() + "." + octet();
    case 1:
        return octet() + "." + octet() + "." + octet() + "." + octet() + port(data);
    case 2:
        return "[" + hexDigits(data, 4) + "::" + hexDigits(data, data.ConsumeIntegralInRange(1, 4)) + "]";
    case 3:
        return "[" + hexDigits(data, 4) + ":" + hexDigits(data, 2) + "::1]" + port(data);
    default: {
        static const char* const names[] = { "db", "rabbit.internal", "pg-1.example.com", "relay3", "localhost" };
        return names[data.ConsumeIntegralInRange<size_t>(0, std::size(names) - 1)] + port(data);
    }
    }
}

QByteArray quotedName(FuzzedDataProvider& data, char quote)
{
    static const QByteArray alphabet("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789 ._-/:()");
    QByteArray out(1, quote);
    for (const char c : data.ConsumeRandomLengthString(16))
        out += alphabet.at(static_cast<unsigned char>(c) % alphabet.size());
    return out + quote;
}

// Two texts of the same words with a different value in each slot.
std::pair<QByteArray, QByteArray> twoTexts(FuzzedDataProvider& data)
{
    QByteArrayList a;
    QByteArrayList b;
    while (data.remaining_bytes() > 0 && a.size() < 24) {
        switch (data.ConsumeIntegralInRange(0, 6)) {
        case 0:
            a.append(number(data));
            b.append(number(data));
            break;
        case 1: {
            const int kind = data.ConsumeIntegralInRange(0, 3);
            a.append(id(data, kind));
            b.append(id(data, kind));
            break;
        }
        case 2: {
            const int kind = data.ConsumeIntegralInRange(0, 4);
            a.append(host(data, kind));
            b.append(host(data, kind));
            break;
        }
        case 3: {
            const char quote = data.ConsumeBool() ? '\'' : '"';
            a.append(quotedName(data, quote));
            b.append(quotedName(data, quote));
            break;
        }
        default: {
            const QByteArray w = word(data);
            if (!w.isEmpty()) {
                a.append(w);
                b.append(w);
            }
        }
        }
    }
    return { a.join(' '), b.join(' ') };
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    connection = PQconnectdb("");
    if (PQstatus(connection) != CONNECTION_OK)
        fail("cannot connect as the libpq environment says: " + QByteArray(PQerrorMessage(connection)));
    run(QStringLiteral("SET client_encoding = 'UTF8'"));
    run(newestDefinition());
    PGresult* prepared = PQprepare(connection, "sign",
        "SELECT pg_temp.outbox_error_signature($1), "
        "pg_temp.outbox_error_signature(pg_temp.outbox_error_signature($1)), "
        "pg_temp.outbox_error_signature($2), pg_temp.outbox_error_signature($3), "
        "pg_temp.outbox_error_signature($4), pg_temp.outbox_error_signature($5)",
        5, nullptr);
    if (PQresultStatus(prepared) != PGRES_COMMAND_OK)
        fail(QByteArray(PQresultErrorMessage(prepared)));
    PQclear(prepared);
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size)
{
    // Any text PostgreSQL can hold: UTF-8 without U+0000.
    const QByteArray text
        = QString::fromUtf8(reinterpret_cast<const char*>(bytes), qsizetype(size)).remove(QChar(u'\0')).toUtf8();
    FuzzedDataProvider data(bytes, size);
    const QByteArray first = plainWord(data);
    QByteArray other = plainWord(data);
    if (other == first)
        other += 'g';
    const auto [a, b] = twoTexts(data);
    // The distinguishing word leads, where no cut of a long text can drop it.
    const QByteArray c = first + ' ' + a;
    const QByteArray d = other + ' ' + a;
    const std::array<QByteArray, 6> signed_ = signatures({ text, a, b, c, d });
    FUZZ_REQUIRE(signed_[0] == signed_[1],
        "signing twice changes the signature of " + quotedForReport(QString::fromUtf8(text)) + ":\n"
            + quotedForReport(QString::fromUtf8(signed_[0])) + "\n" + quotedForReport(QString::fromUtf8(signed_[1])));
    FUZZ_REQUIRE(signed_[2] == signed_[3],
        "texts that differ only in numbers, ids, hosts or quoted names are signed apart:\n"
            + quotedForReport(QString::fromUtf8(a)) + " -> " + quotedForReport(QString::fromUtf8(signed_[2])) + "\n"
            + quotedForReport(QString::fromUtf8(b)) + " -> " + quotedForReport(QString::fromUtf8(signed_[3])));
    FUZZ_REQUIRE(signed_[4] != signed_[5],
        "texts that differ in a word are signed alike:\n" + quotedForReport(QString::fromUtf8(c)) + "\n"
            + quotedForReport(QString::fromUtf8(d)) + " -> " + quotedForReport(QString::fromUtf8(signed_[4])));
    return 0;
}

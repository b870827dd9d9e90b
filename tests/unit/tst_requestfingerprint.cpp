// SPDX-License-Identifier: GPL-3.0-or-later
#include "idempotency/requestfingerprint.h"

#include <QJsonDocument>
#include <QRegularExpression>
#include <QTest>

namespace {

QJsonObject parsed(const QByteArray& json)
{
    return QJsonDocument::fromJson(json).object();
}

} // namespace

// The server-computed identity of a request, which decides whether a repeated idempotency key is a replay or
// a mismatch: equal for requests that mean the same, different for anything else.
class TestRequestFingerprint final : public QObject {
    Q_OBJECT

private slots:
    void equivalentRequestsShareAFingerprint_data()
    {
        QTest::addColumn<QByteArray>("a");
        QTest::addColumn<QByteArray>("b");
        QTest::addColumn<bool>("same");
        QTest::newRow("key order and whitespace")
            << QByteArray(R"({"a":1,"b":2})") << QByteArray(R"({ "b":2, "a":1 })") << true;
        QTest::newRow("nested objects") << QByteArray(R"({"x":{"q":[1,2],"p":"s"}})")
                                        << QByteArray("{\"x\" : {\n\"p\":\"s\", \"q\":[ 1, 2 ]}}") << true;
        QTest::newRow("integral float") << QByteArray(R"({"a":1.0})") << QByteArray(R"({"a":1})") << true;
        QTest::newRow("array order matters") << QByteArray(R"({"a":[1,2]})") << QByteArray(R"({"a":[2,1]})") << false;
        QTest::newRow("value differs") << QByteArray(R"({"a":1})") << QByteArray(R"({"a":"1"})") << false;
    }

    void equivalentRequestsShareAFingerprint()
    {
        QFETCH(QByteArray, a);
        QFETCH(QByteArray, b);
        QFETCH(bool, same);
        const QJsonObject left = QJsonDocument::fromJson(a).object();
        const QJsonObject right = QJsonDocument::fromJson(b).object();
        QVERIFY(!left.isEmpty() && !right.isEmpty());
        QCOMPARE(RequestFingerprint::compute(QStringLiteral("op"), left)
                == RequestFingerprint::compute(QStringLiteral("op"), right),
            same);
        QCOMPARE(RequestFingerprint::compute(QStringLiteral("op"), left).size(), 64);
        // The operation name is part of the identity.
        QVERIFY(RequestFingerprint::compute(QStringLiteral("op"), left)
            != RequestFingerprint::compute(QStringLiteral("other"), left));
    }

    void canonicalFormIsSortedAndCompact_data()
    {
        QTest::addColumn<QByteArray>("request");
        QTest::addColumn<QByteArray>("canonical");
        QTest::newRow("keys sorted") << QByteArray(R"({"b":2,"a":1,"c":3})") << QByteArray(R"({"a":1,"b":2,"c":3})");
        QTest::newRow("keys sorted at every level")
            << QByteArray(R"({"z":{"y":{"b":true,"a":null}},"m":[{"d":1,"c":2}]})")
            << QByteArray(R"({"m":[{"c":2,"d":1}],"z":{"y":{"a":null,"b":true}}})");
        QTest::newRow("no insignificant whitespace")
            << QByteArray("{\n  \"a\" : [ 1 ,\t2 ],\r\n  \"b\" : { }\n}") << QByteArray(R"({"a":[1,2],"b":{}})");
        QTest::newRow("whitespace inside strings is kept")
            << QByteArray(R"({"note":"  two  spaces "})") << QByteArray(R"({"note":"  two  spaces "})");
        QTest::newRow("integral float as an integer") << QByteArray(R"({"n":1.0})") << QByteArray(R"({"n":1})");
        QTest::newRow("exponent written out") << QByteArray(R"({"n":1e2})") << QByteArray(R"({"n":100})");
        QTest::newRow("shortest round-trip decimal") << QByteArray(R"({"n":0.10})") << QByteArray(R"({"n":0.1})");
        QTest::newRow("64-bit id kept exactly")
            << QByteArray(R"({"id":9007199254740993})") << QByteArray(R"({"id":9007199254740993})");
        QTest::newRow("empty request") << QByteArray("{}") << QByteArray("{}");
        // Raw control characters and NULs in keys beside a character beyond ASCII: Qt 6.4 kept these two keys out of
        // order, so its compact document depended on the spelling (found by fuzz_requestfingerprint).
        QTest::newRow("keys Qt keeps out of order")
            << QByteArray::fromHex("7b2235320100000042c3830707773000000065223a312c22353201000000"
                                   "42c38329075c5c40404040405c5c223a22227d")
            << QByteArray("{\"52\\u0001\\u0000\\u0000\\u0000B\xC3\x83\\u0007\\u0007w0\\u0000\\u0000\\u0000e\":1,"
                          "\"52\\u0001\\u0000\\u0000\\u0000B\xC3\x83)\\u0007\\\\@@@@@\\\\\":\"\"}");
    }

    void canonicalFormIsSortedAndCompact()
    {
        QFETCH(QByteArray, request);
        QFETCH(QByteArray, canonical);
        const QJsonDocument document = QJsonDocument::fromJson(request);
        QVERIFY2(document.isObject(), request.constData());
        QCOMPARE(RequestFingerprint::canonicalJson(document.object()), canonical);
    }

    // The canonical form is a fixed point: canonicalising it again changes nothing.
    void canonicalFormIsStable()
    {
        const QByteArray canonical = RequestFingerprint::canonicalJson(
            parsed(R"({ "customer": "alice", "lines": [ {"sku": "b", "qty": 2}, {"qty": 1, "sku": "a"} ] })"));
        QCOMPARE(RequestFingerprint::canonicalJson(parsed(canonical)), canonical);
    }

    void fingerprintIsLowercaseSha256Hex()
    {
        const QString fingerprint
            = RequestFingerprint::compute(QStringLiteral("create-order"), parsed(R"({"customer":"alice"})"));
        QVERIFY2(QRegularExpression(QStringLiteral("^[0-9a-f]{64}$")).match(fingerprint).hasMatch(),
            qPrintable(fingerprint));
        // The same request, computed again, is the same identity.
        QCOMPARE(RequestFingerprint::compute(QStringLiteral("create-order"), parsed(R"({ "customer" : "alice" })")),
            fingerprint);
    }

    // The operation name is matched exactly: a request to another operation is never a replay of this one.
    void operationNameIsPartOfTheIdentity_data()
    {
        QTest::addColumn<QString>("other");
        QTest::newRow("other operation") << QStringLiteral("cancel-order");
        QTest::newRow("case differs") << QStringLiteral("Create-Order");
        QTest::newRow("trailing blank") << QStringLiteral("create-order ");
        QTest::newRow("no operation") << QString();
    }

    void operationNameIsPartOfTheIdentity()
    {
        QFETCH(QString, other);
        const QJsonObject request = parsed(R"({"amount":"10.00","customer":"alice"})");
        QVERIFY(RequestFingerprint::compute(QStringLiteral("create-order"), request)
            != RequestFingerprint::compute(other, request));
    }
};

QTEST_GUILESS_MAIN(TestRequestFingerprint)
#include "tst_requestfingerprint.moc"

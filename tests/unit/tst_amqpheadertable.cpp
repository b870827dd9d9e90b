// SPDX-License-Identifier: GPL-3.0-or-later
#include "broker/amqpheadertable.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QTest>
#include <memory>

namespace {

QByteArray bytesOf(const amqp_bytes_t& bytes)
{
    return QByteArray(static_cast<const char*>(bytes.bytes), qsizetype(bytes.len));
}

amqp_bytes_t bytesFor(const char* text)
{
    return amqp_bytes_t { qstrlen(text), const_cast<char*>(text) };
}

// The field stored under `key`, or nullptr if there is none or more than one.
const amqp_field_value_t* field(const amqp_table_t& table, const QByteArray& key)
{
    const amqp_field_value_t* found = nullptr;
    for (int i = 0; i < table.num_entries; ++i) {
        if (bytesOf(table.entries[i].key) != key)
            continue;
        if (found)
            return nullptr;
        found = &table.entries[i].value;
    }
    return found;
}

// Headers as the relay gets them: the outbox row's headers column as JSON text.
QJsonObject headersFrom(const QByteArray& json)
{
    return QJsonDocument::fromJson(json).object();
}

} // namespace

// The AMQP field table a message's headers travel in, and its reading back on the consumer's side.
class TestAmqpHeaderTable final : public QObject {
    Q_OBJECT

private slots:
    void noHeadersIsAnEmptyTable()
    {
        const AmqpHeaderTable headers { QJsonObject() };
        QCOMPARE(headers.table().num_entries, 0);
        QVERIFY(AmqpHeaderTable::toJson(headers.table()).isEmpty());
    }

    void scalarsKeepTheirType_data()
    {
        QTest::addColumn<QByteArray>("value"); // JSON text
        QTest::addColumn<int>("kind");
        QTest::newRow("true") << QByteArray("true") << int(AMQP_FIELD_KIND_BOOLEAN);
        QTest::newRow("false") << QByteArray("false") << int(AMQP_FIELD_KIND_BOOLEAN);
        QTest::newRow("small integer") << QByteArray("42") << int(AMQP_FIELD_KIND_I64);
        QTest::newRow("negative integer") << QByteArray("-7") << int(AMQP_FIELD_KIND_I64);
        QTest::newRow("zero") << QByteArray("0") << int(AMQP_FIELD_KIND_I64);
        QTest::newRow("2^53 + 1") << QByteArray("9007199254740993") << int(AMQP_FIELD_KIND_I64);
        QTest::newRow("largest 64-bit integer") << QByteArray("9223372036854775807") << int(AMQP_FIELD_KIND_I64);
        QTest::newRow("smallest 64-bit integer") << QByteArray("-9223372036854775808") << int(AMQP_FIELD_KIND_I64);
        QTest::newRow("fraction") << QByteArray("2.5") << int(AMQP_FIELD_KIND_F64);
        QTest::newRow("exponent") << QByteArray("1.25e300") << int(AMQP_FIELD_KIND_F64);
        QTest::newRow("string") << QByteArray("\"t-1\"") << int(AMQP_FIELD_KIND_UTF8);
        QTest::newRow("empty string") << QByteArray("\"\"") << int(AMQP_FIELD_KIND_UTF8);
        QTest::newRow("non-ASCII string") << QByteArray("\"Zürich ✓\"") << int(AMQP_FIELD_KIND_UTF8);
        QTest::newRow("null") << QByteArray("null") << int(AMQP_FIELD_KIND_VOID);
    }

    void scalarsKeepTheirType()
    {
        QFETCH(QByteArray, value);
        QFETCH(int, kind);
        const QJsonObject json = headersFrom("{\"h\": " + value + '}');
        QCOMPARE(json.size(), 1);
        const AmqpHeaderTable headers(json);
        QCOMPARE(headers.table().num_entries, 1);
        const amqp_field_value_t* h = field(headers.table(), "h");
        QVERIFY(h);
        QCOMPARE(int(h->kind), kind);
        // The value itself, compared with the JSON text it came from (not with what Qt made of it).
        const QJsonValue original = json.value(QStringLiteral("h"));
        switch (h->kind) {
        case AMQP_FIELD_KIND_BOOLEAN:
            QCOMPARE(bool(h->value.boolean), value == "true");
            break;
        case AMQP_FIELD_KIND_I64:
            QCOMPARE(QByteArray::number(qint64(h->value.i64)), value);
            break;
        case AMQP_FIELD_KIND_F64:
            QCOMPARE(h->value.f64, value.toDouble());
            break;
        case AMQP_FIELD_KIND_UTF8:
            QCOMPARE(bytesOf(h->value.bytes), value.mid(1, value.size() - 2));
            QCOMPARE(QString::fromUtf8(bytesOf(h->value.bytes)), original.toString());
            break;
        default:
            break;
        }
    }

    // A number beyond 64 bits cannot be an integer field; it travels as the double it reads as.
    void integerBeyond64BitsIsADouble()
    {
        const AmqpHeaderTable headers(headersFrom(R"({"huge": 18446744073709551616})"));
        const amqp_field_value_t* huge = field(headers.table(), "huge");
        QVERIFY(huge);
        QCOMPARE(int(huge->kind), int(AMQP_FIELD_KIND_F64));
        QCOMPARE(huge->value.f64, 18446744073709551616.0);
    }

    void nestedValuesTravelAsCompactJson_data()
    {
        QTest::addColumn<QByteArray>("value");
        QTest::newRow("array") << QByteArray(R"([1, "x", true, null])");
        QTest::newRow("object") << QByteArray(R"({ "span": "abc", "sampled": true })");
        QTest::newRow("nested both ways") << QByteArray(R"({ "path": [ { "hop": 1 }, { "hop": 2 } ], "meta": {} })");
        QTest::newRow("empty array") << QByteArray("[ ]");
        QTest::newRow("empty object") << QByteArray("{ }");
        QTest::newRow("exact 64-bit integers inside") << QByteArray("[ 9007199254740993, -9223372036854775808 ]");
        QTest::newRow("text with blanks inside") << QByteArray(R"([ "a b", { "k": " v " } ])");
    }

    void nestedValuesTravelAsCompactJson()
    {
        QFETCH(QByteArray, value);
        const QJsonObject json = headersFrom("{\"n\": " + value + '}');
        const AmqpHeaderTable headers(json);
        const amqp_field_value_t* n = field(headers.table(), "n");
        QVERIFY(n);
        QCOMPARE(int(n->kind), int(AMQP_FIELD_KIND_UTF8));
        const QByteArray text = bytesOf(n->value.bytes);
        // The same value, read back.
        const QJsonDocument back = QJsonDocument::fromJson("{\"n\": " + text + '}');
        QVERIFY2(back.isObject(), text.constData());
        QCOMPARE(back.object().value(QStringLiteral("n")), json.value(QStringLiteral("n")));
        // Compact: no line breaks, and no blanks other than those inside strings.
        QVERIFY2(!text.contains('\n'), text.constData());
        QByteArray outsideStrings;
        bool inString = false;
        for (qsizetype i = 0; i < text.size(); ++i) {
            if (text.at(i) == '"' && (i == 0 || text.at(i - 1) != '\\'))
                inString = !inString;
            else if (!inString)
                outsideStrings += text.at(i);
        }
        QVERIFY2(!outsideStrings.contains(' ') && !outsideStrings.contains('\t'), text.constData());
        if (value.contains("9007199254740993"))
            QVERIFY2(text.contains("9007199254740993") && text.contains("-9223372036854775808"), text.constData());
    }

    // The table points into memory it owns: it stays valid after the JSON it was built from is gone, and with
    // many headers (whose storage grows) every key and value is still where the table says.
    void manyHeadersOutliveTheirJson()
    {
        std::unique_ptr<AmqpHeaderTable> headers;
        {
            QJsonObject json;
            for (int i = 0; i < 300; ++i) {
                const QString key = QStringLiteral("header-%1").arg(i, 3, 10, QLatin1Char('0'));
                json.insert(key,
                    i % 2 ? QJsonValue(QStringLiteral("value %1 ").arg(i).repeated(i % 7 + 1))
                          : QJsonValue(qint64(i) * 1'000'000'007LL));
            }
            headers = std::make_unique<AmqpHeaderTable>(json);
        }
        QCOMPARE(headers->table().num_entries, 300);
        for (int i = 0; i < 300; ++i) {
            const QByteArray key = QStringLiteral("header-%1").arg(i, 3, 10, QLatin1Char('0')).toUtf8();
            const amqp_field_value_t* value = field(headers->table(), key);
            QVERIFY2(value, key.constData());
            if (i % 2) {
                QCOMPARE(int(value->kind), int(AMQP_FIELD_KIND_UTF8));
                QCOMPARE(bytesOf(value->value.bytes), QStringLiteral("value %1 ").arg(i).repeated(i % 7 + 1).toUtf8());
            } else {
                QCOMPARE(int(value->kind), int(AMQP_FIELD_KIND_I64));
                QCOMPARE(qint64(value->value.i64), qint64(i) * 1'000'000'007LL);
            }
        }
    }

    // What a consumer reads from a message the relay sent: scalars as they were, nested values as their text.
    void consumerReadsBackWhatTheRelaySent()
    {
        const AmqpHeaderTable headers(headersFrom(R"({"tenant": "t-1", "seq": 5, "urgent": true, "ratio": 2.5,
            "none": null, "big": 9007199254740993, "trace": [1, "x"], "ctx": {"b": 2, "a": 1}})"));
        const QJsonObject read = AmqpHeaderTable::toJson(headers.table());
        QCOMPARE(read.size(), 8);
        QCOMPARE(read.value(QStringLiteral("tenant")), QJsonValue(QStringLiteral("t-1")));
        QCOMPARE(read.value(QStringLiteral("seq")), QJsonValue(5));
        QCOMPARE(read.value(QStringLiteral("urgent")), QJsonValue(true));
        QCOMPARE(read.value(QStringLiteral("ratio")), QJsonValue(2.5));
        QVERIFY(read.contains(QStringLiteral("none")) && read.value(QStringLiteral("none")).isNull());
        QCOMPARE(read.value(QStringLiteral("big")).toInteger(), 9'007'199'254'740'993LL);
        QVERIFY(read.value(QStringLiteral("trace")).isString());
        QCOMPARE(QJsonDocument::fromJson(read.value(QStringLiteral("trace")).toString().toUtf8()).array(),
            (QJsonArray { 1, QStringLiteral("x") }));
        QVERIFY(read.value(QStringLiteral("ctx")).isString());
        QCOMPARE(QJsonDocument::fromJson(read.value(QStringLiteral("ctx")).toString().toUtf8()).object(),
            (QJsonObject { { QStringLiteral("a"), 1 }, { QStringLiteral("b"), 2 } }));
    }

    // Other publishers use the rest of AMQP's field kinds; each reads as the JSON value it stands for.
    void everyFieldKindReadsAsJson()
    {
        amqp_field_value_t listItems[2] {};
        listItems[0].kind = AMQP_FIELD_KIND_I32;
        listItems[0].value.i32 = 7;
        listItems[1].kind = AMQP_FIELD_KIND_UTF8;
        listItems[1].value.bytes = bytesFor("seven");
        amqp_table_entry_t innerEntries[1] {};
        innerEntries[0].key = bytesFor("depth");
        innerEntries[0].value.kind = AMQP_FIELD_KIND_U8;
        innerEntries[0].value.value.u8 = 2;

        std::vector<amqp_table_entry_t> entries;
        const auto add = [&](const char* key, uint8_t kind, const auto& set) {
            amqp_table_entry_t entry {};
            entry.key = bytesFor(key);
            entry.value.kind = kind;
            set(entry.value.value);
            entries.push_back(entry);
        };
        add("bool", AMQP_FIELD_KIND_BOOLEAN, [](auto& v) { v.boolean = 1; });
        add("i8", AMQP_FIELD_KIND_I8, [](auto& v) { v.i8 = -128; });
        add("u8", AMQP_FIELD_KIND_U8, [](auto& v) { v.u8 = 255; });
        add("i16", AMQP_FIELD_KIND_I16, [](auto& v) { v.i16 = -32768; });
        add("u16", AMQP_FIELD_KIND_U16, [](auto& v) { v.u16 = 65535; });
        add("i32", AMQP_FIELD_KIND_I32, [](auto& v) { v.i32 = -2147483647 - 1; });
        add("u32", AMQP_FIELD_KIND_U32, [](auto& v) { v.u32 = 4294967295U; });
        add("i64", AMQP_FIELD_KIND_I64, [](auto& v) { v.i64 = -9'007'199'254'740'993LL; });
        add("u64", AMQP_FIELD_KIND_U64, [](auto& v) { v.u64 = 9'007'199'254'740'993ULL; });
        add("timestamp", AMQP_FIELD_KIND_TIMESTAMP, [](auto& v) { v.u64 = 1'780'000'000ULL; });
        add("f32", AMQP_FIELD_KIND_F32, [](auto& v) { v.f32 = 0.375f; });
        add("f64", AMQP_FIELD_KIND_F64, [](auto& v) { v.f64 = -1.5e-300; });
        add("utf8", AMQP_FIELD_KIND_UTF8, [](auto& v) { v.bytes = bytesFor("Zürich ✓"); });
        add("bytes", AMQP_FIELD_KIND_BYTES, [](auto& v) { v.bytes = bytesFor("raw"); });
        add("void", AMQP_FIELD_KIND_VOID, [](auto&) {});
        add("table", AMQP_FIELD_KIND_TABLE, [&](auto& v) { v.table = amqp_table_t { 1, innerEntries }; });
        add("array", AMQP_FIELD_KIND_ARRAY, [&](auto& v) { v.array = amqp_array_t { 2, listItems }; });
        const amqp_table_t table { int(entries.size()), entries.data() };

        const QJsonObject read = AmqpHeaderTable::toJson(table);
        QCOMPARE(read.size(), int(entries.size()));
        QCOMPARE(read.value(QStringLiteral("bool")), QJsonValue(true));
        QCOMPARE(read.value(QStringLiteral("i8")).toInteger(), -128);
        QCOMPARE(read.value(QStringLiteral("u8")).toInteger(), 255);
        QCOMPARE(read.value(QStringLiteral("i16")).toInteger(), -32768);
        QCOMPARE(read.value(QStringLiteral("u16")).toInteger(), 65535);
        QCOMPARE(read.value(QStringLiteral("i32")).toInteger(), -2147483648LL);
        QCOMPARE(read.value(QStringLiteral("u32")).toInteger(), 4294967295LL); // not -1
        QCOMPARE(read.value(QStringLiteral("i64")).toInteger(), -9'007'199'254'740'993LL);
        QCOMPARE(read.value(QStringLiteral("u64")).toInteger(), 9'007'199'254'740'993LL);
        QCOMPARE(read.value(QStringLiteral("timestamp")).toInteger(), 1'780'000'000LL);
        QCOMPARE(read.value(QStringLiteral("f32")).toDouble(), 0.375);
        QCOMPARE(read.value(QStringLiteral("f64")).toDouble(), -1.5e-300);
        QCOMPARE(read.value(QStringLiteral("utf8")).toString(), QStringLiteral("Zürich ✓"));
        QCOMPARE(read.value(QStringLiteral("bytes")).toString(), QStringLiteral("raw"));
        QVERIFY(read.contains(QStringLiteral("void")) && read.value(QStringLiteral("void")).isNull());
        QCOMPARE(read.value(QStringLiteral("table")).toObject(), (QJsonObject { { QStringLiteral("depth"), 2 } }));
        QCOMPARE(read.value(QStringLiteral("array")).toArray(), (QJsonArray { 7, QStringLiteral("seven") }));
    }
};

QTEST_GUILESS_MAIN(TestAmqpHeaderTable)
#include "tst_amqpheadertable.moc"

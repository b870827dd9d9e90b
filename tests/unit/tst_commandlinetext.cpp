// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/commandlinetext.h"

#include <QTest>

// Command-line arguments whose bytes are not UTF-8 are refused by the option they came with, instead of being
// rewritten with U+FFFD (two different idempotency keys would become one).
class TestCommandLineText final : public QObject {
    Q_OBJECT

    // A parser (not copyable) that has parsed `argv`, given as raw bytes.
    struct Parsed {
        Parsed(const QList<QCommandLineOption>& options, const QByteArrayList& argv)
        {
            QList<const char*> pointers;
            for (const QByteArray& argument : argv)
                pointers.append(argument.constData());
            parser.addOptions(options);
            ok = parser.parse(CommandLineText::arguments(int(pointers.size()), pointers.constData()));
        }
        QCommandLineParser parser;
        bool ok = false;
    };

    const QList<QCommandLineOption> m_options { QCommandLineOption(
                                                    QStringLiteral("key"), QString(), QStringLiteral("KEY")),
        QCommandLineOption(QStringLiteral("dry-run")) };

private slots:
    void textIsDecodedAsUtf8_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("text");
        QTest::newRow("ascii") << QByteArray("order-1") << QStringLiteral("order-1");
        QTest::newRow("two-byte") << QByteArray("caf\xc3\xa9") << QStringLiteral("café");
        QTest::newRow("three-byte") << QByteArray("\xec\x95\x84\xec\x9b\x83") << QStringLiteral("아웃");
        QTest::newRow("four-byte") << QByteArray("\xf0\x9f\x93\xa6") << QString::fromUtf8("\xf0\x9f\x93\xa6");
        // The replacement character itself is text a key may hold: only bytes that are not UTF-8 are refused.
        QTest::newRow("replacement character") << QByteArray("\xef\xbf\xbd") << QString(QChar(0xFFFD));
        QTest::newRow("empty") << QByteArray() << QString();
    }

    void textIsDecodedAsUtf8()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, text);
        const Parsed parsed(m_options, { "prog", "--key", bytes });
        QVERIFY(parsed.ok);
        QCOMPARE(parsed.parser.value(QStringLiteral("key")), text);
        QCOMPARE(CommandLineText::optionNotUtf8(parsed.parser, m_options), std::nullopt);
    }

    void bytesThatAreNotUtf8AreRefusedNamingTheOption_data()
    {
        QTest::addColumn<QByteArray>("bytes");
        QTest::addColumn<QString>("where"); // the byte and its position, as the message says it
        QTest::newRow("latin-1") << QByteArray("caf\xe9") << QStringLiteral("byte 0xe9 at character 4");
        QTest::newRow("lone continuation") << QByteArray("\x80") << QStringLiteral("byte 0x80 at character 1");
        QTest::newRow("truncated sequence") << QByteArray("ab\xe2\x82") << QStringLiteral("byte 0xe2 at character 3");
        QTest::newRow("overlong slash") << QByteArray("\xc0\xaf") << QStringLiteral("byte 0xc0 at character 1");
        QTest::newRow("encoded surrogate") << QByteArray("\xed\xa0\x80") << QStringLiteral("byte 0xed at character 1");
        QTest::newRow("beyond U+10FFFF") << QByteArray("\xf4\x90\x80\x80") << QStringLiteral("byte 0xf4");
        QTest::newRow("0xff") << QByteArray("\xff") << QStringLiteral("byte 0xff at character 1");
        // After a character outside the BMP (two UTF-16 units): the escaped byte is not taken for its second half.
        QTest::newRow("after a four-byte character")
            << QByteArray("\xf0\x9f\x93\xa6\xff") << QStringLiteral("byte 0xff at character 2");
    }

    void bytesThatAreNotUtf8AreRefusedNamingTheOption()
    {
        QFETCH(QByteArray, bytes);
        QFETCH(QString, where);
        for (const QByteArrayList& argv : { QByteArrayList { "prog", "--key", bytes, "--dry-run" },
                 QByteArrayList { "prog", "--dry-run", "--key=" + bytes } }) {
            const Parsed parsed(m_options, argv);
            QVERIFY(parsed.ok);
            const std::optional<QString> problem = CommandLineText::optionNotUtf8(parsed.parser, m_options);
            QVERIFY2(problem, bytes.toHex().constData());
            QVERIFY2(problem->startsWith(QStringLiteral("--key: the value is not valid UTF-8")), qPrintable(*problem));
            QVERIFY2(problem->contains(where), qPrintable(*problem));
        }
    }

    // Two keys that differ only in a byte that is not UTF-8 stay different strings (Qt's decoding made them one).
    void differentBytesStayDifferent()
    {
        const Parsed a(m_options, { "prog", "--key", "k\xfe" });
        const Parsed b(m_options, { "prog", "--key", "k\xff" });
        QVERIFY(a.ok && b.ok);
        QVERIFY(a.parser.value(QStringLiteral("key")) != b.parser.value(QStringLiteral("key")));
    }

    void positionalArgumentsAreNamed()
    {
        const Parsed second(m_options, { "prog", "--dry-run", "outbox", "\xff" });
        QVERIFY(second.ok);
        QCOMPARE(CommandLineText::optionNotUtf8(second.parser, m_options), std::nullopt);
        const std::optional<QString> beyond
            = CommandLineText::positionalNotUtf8(second.parser, { QStringLiteral("what") });
        QVERIFY(beyond);
        QVERIFY2(beyond->startsWith(QStringLiteral("argument 2 is not valid UTF-8")), qPrintable(*beyond));
        const Parsed first(m_options, { "prog", "\xff" });
        const std::optional<QString> named
            = CommandLineText::positionalNotUtf8(first.parser, { QStringLiteral("what") });
        QVERIFY(named);
        QVERIFY2(named->startsWith(QStringLiteral("the what argument is not valid UTF-8 (")), qPrintable(*named));
    }
};

QTEST_GUILESS_MAIN(TestCommandLineText)
#include "tst_commandlinetext.moc"

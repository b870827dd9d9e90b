// SPDX-License-Identifier: GPL-3.0-or-later
// What an operator's edit of a message is checked with before the database sees it: the JSON syntax check of the
// editor and the line difference the confirmation and the audit log show.
#include "operations/jsonsyntax.h"
#include "operations/linediff.h"

#include <QTest>

class TestContentEdit final : public QObject {
    Q_OBJECT

private slots:
    void oneJsonValueIsAccepted_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("object") << QStringLiteral("{\"amount\": 12.50}");
        QTest::newRow("array") << QStringLiteral("[1, 2]");
        QTest::newRow("number") << QStringLiteral("12345678901234567890");
        QTest::newRow("string") << QStringLiteral("\"text\"");
        QTest::newRow("null") << QStringLiteral("null");
        // Beyond a double: jsonb keeps it, so the server decides.
        QTest::newRow("number beyond a double") << QStringLiteral("{\"n\": 1e400}");
        QTest::newRow("blanks around") << QStringLiteral("\n  {}\n");
    }

    void oneJsonValueIsAccepted()
    {
        QFETCH(QString, text);
        QVERIFY(!JsonSyntax::check(text));
    }

    void whatIsNotOneJsonValueSaysWhere_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<QString>("problem");
        QTest::newRow("empty") << QString() << QStringLiteral("empty");
        QTest::newRow("blank") << QStringLiteral("  \n") << QStringLiteral("empty");
        QTest::newRow("two values") << QStringLiteral("1, 2") << QStringLiteral("more than one JSON value");
        QTest::newRow("two objects") << QStringLiteral("{} {}") << QStringLiteral("line 1, column 4: garbage");
        QTest::newRow("two objects on two lines")
            << QStringLiteral("{}\n{}") << QStringLiteral("line 2, column 1: garbage");
        QTest::newRow("unclosed") << QStringLiteral("{\"a\": 1") << QStringLiteral("line 1, column ");
        // A missing comma on the third line: the place is counted in lines and in characters, not bytes.
        QTest::newRow("an emoji is one character")
            << QStringLiteral("{\"😀\": 1 \"b\": 2}") << QStringLiteral("line 1, column 9");
        QTest::newRow("third line") << QStringLiteral("{\n  \"ä\": 1\n  \"b\": 2\n}")
                                    << QStringLiteral("line 3, column 3");
        QTest::newRow("closing bracket only") << QStringLiteral("]") << QStringLiteral("line 1, column 1");
        QTest::newRow("escape out of the brackets") << QStringLiteral("1],[2") << QStringLiteral("line 1, column 2");
        QTest::newRow("a scalar and more") << QStringLiteral("\"a\" x") << QStringLiteral("line 1, column 5");
    }

    void whatIsNotOneJsonValueSaysWhere()
    {
        QFETCH(QString, text);
        QFETCH(QString, problem);
        const auto checked = JsonSyntax::check(text);
        QVERIFY(checked);
        const QString found = checked->text();
        QVERIFY2(found.startsWith(problem), qPrintable(found));
    }

    void differenceOfLines_data()
    {
        QTest::addColumn<QString>("before");
        QTest::addColumn<QString>("after");
        QTest::addColumn<int>("context");
        QTest::addColumn<QStringList>("unified");
        QTest::addColumn<int>("removed");
        QTest::addColumn<int>("added");
        const QString object = QStringLiteral("{\n  \"a\": 1,\n  \"b\": 2,\n  \"c\": 3,\n  \"d\": 4,\n  \"e\": 5\n}");
        QTest::newRow("same") << object << object << 3 << QStringList { QStringLiteral("…") } << 0 << 0;
        QTest::newRow("one line changed, context 1")
            << object << QString(object).replace(QStringLiteral("\"c\": 3"), QStringLiteral("\"c\": \"3\"")) << 1
            << QStringList { QStringLiteral("…"), QStringLiteral("    \"b\": 2,"), QStringLiteral("-   \"c\": 3,"),
                   QStringLiteral("+   \"c\": \"3\","), QStringLiteral("    \"d\": 4,"), QStringLiteral("…") }
            << 1 << 1;
        QTest::newRow("line added at the end")
            << QStringLiteral("a\nb") << QStringLiteral("a\nb\nc") << 3
            << QStringList { QStringLiteral("  a"), QStringLiteral("  b"), QStringLiteral("+ c") } << 0 << 1;
        QTest::newRow("line removed at the start")
            << QStringLiteral("a\nb\nc") << QStringLiteral("b\nc") << 0
            << QStringList { QStringLiteral("- a"), QStringLiteral("…") } << 1 << 0;
        // The common lines between two changes are kept as such, not removed and added again.
        QTest::newRow("two changes around a common line")
            << QStringLiteral("x\nsame\ny") << QStringLiteral("X\nsame\nY") << 0
            << QStringList { QStringLiteral("- x"), QStringLiteral("+ X"), QStringLiteral("…"), QStringLiteral("- y"),
                   QStringLiteral("+ Y") }
            << 2 << 2;
    }

    void differenceOfLines()
    {
        QFETCH(QString, before);
        QFETCH(QString, after);
        QFETCH(int, context);
        QFETCH(QStringList, unified);
        QFETCH(int, removed);
        QFETCH(int, added);
        const LineDiff diff(before, after);
        QCOMPARE(diff.unified(context), unified);
        QCOMPARE(diff.removed(), removed);
        QCOMPARE(diff.added(), added);
        QCOMPARE(diff.isEmpty(), removed == 0 && added == 0);
    }

    // Past LineDiff::MaxCells the differing middle is shown removed and added whole: still a correct difference.
    void aHugeDifferenceIsStillCorrect()
    {
        QStringList before;
        QStringList after;
        for (int i = 0; i < 3000; ++i) {
            before.append(QStringLiteral("  \"k%1\": %1,").arg(i));
            after.append(QStringLiteral("  \"k%1\": %2,").arg(i).arg(i % 2 ? i : -i));
        }
        before.prepend(QStringLiteral("{"));
        after.prepend(QStringLiteral("{"));
        const LineDiff diff(before.join(QLatin1Char('\n')), after.join(QLatin1Char('\n')));
        QVERIFY(qsizetype(before.size() - 2) * (after.size() - 2) > LineDiff::MaxCells);
        QCOMPARE(diff.lines().first().text, QStringLiteral("{"));
        QCOMPARE(diff.lines().first().kind, LineDiff::Line::Kind::Same);
        // Replaying the difference gives both texts back.
        QStringList left;
        QStringList right;
        for (const LineDiff::Line& line : diff.lines()) {
            if (line.kind != LineDiff::Line::Kind::Added)
                left.append(line.text);
            if (line.kind != LineDiff::Line::Kind::Removed)
                right.append(line.text);
        }
        QCOMPARE(left, before);
        QCOMPARE(right, after);
    }
};

QTEST_GUILESS_MAIN(TestContentEdit)
#include "tst_contentedit.moc"

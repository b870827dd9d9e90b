// SPDX-License-Identifier: GPL-3.0-or-later
#include "common/manpage.h"

#include <QTest>

// ManPage's roff stays well-formed whatever the texts: regressions of tests/fuzz/fuzz_manpage.
class TestManPage final : public QObject {
    Q_OBJECT

private slots:
    // A quote inside a heading closed the request's quoted argument, and a line break ended the request early.
    void headingsAreOneQuotedArgument()
    {
        ManPage page(QStringLiteral("outboxctl"), QStringLiteral("relay the outbox"));
        page.section(QStringLiteral("say \"hi\""));
        page.subsection(QStringLiteral("two\nlines"));
        QVERIFY2(page.text().contains(QStringLiteral("\n.SH \"SAY \\(dqHI\\(dq\"\n")), qPrintable(page.text()));
        QVERIFY2(page.text().contains(QStringLiteral("\n.SS \"two lines\"\n")), qPrintable(page.text()));
    }

    // A .TP tag is the one line after the request: a line break in a term moved its rest into the description.
    void termsAreOneLine()
    {
        ManPage page(QStringLiteral("outboxctl"), QStringLiteral("relay the outbox"));
        page.entry(QStringLiteral("EXIT\nCODE"), QStringLiteral("text\n.starts a line"));
        page.options({ QCommandLineOption(QStringLiteral("dsn"), QStringLiteral("where"), QStringLiteral("D\nSN")) });
        QVERIFY2(page.text().contains(QStringLiteral("\n.TP\n\\fBEXIT CODE\\fR\ntext\n\\&.starts a line\n")),
            qPrintable(page.text()));
        QVERIFY2(page.text().contains(QStringLiteral("\n.TP\n\\fB\\-\\-dsn\\fR \\fID SN\\fR\nwhere\n")),
            qPrintable(page.text()));
    }
};

QTEST_GUILESS_MAIN(TestManPage)
#include "tst_manpage.moc"

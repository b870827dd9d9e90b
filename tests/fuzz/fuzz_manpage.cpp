// SPDX-License-Identifier: GPL-3.0-or-later
// ManPage, which writes the manual pages from the option tables: whatever the headings, options and texts, the page
// is well-formed roff (every request one of those ManPage writes, every backslash a known escape, every quoted
// argument closed where it should be), and reading it back gives each heading, term and text as it was given (a
// line break in a heading or a term as a blank: they are one line).
#include "common/exitcode.h"
#include "common/manpage.h"
#include "fuzzcheck.h"

#include <QCommandLineOption>
#include <QStringList>

namespace {

// One request of the page and the text lines up to the next one.
struct Block {
    QString request; // "SH", "TP", ...
    QString argument; // the request's one quoted argument, decoded ("" for none)
    QStringList lines; // decoded
};

[[noreturn]] void malformed(const char* what, const QString& page)
{
    propertyViolated(what, __FILE__, __LINE__, page.toUtf8());
}

// Text with ManPage's escapes undone; anything else after a backslash is malformed.
QString decoded(const QString& text, const QString& page)
{
    QString out;
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text.at(i) != QLatin1Char('\\')) {
            out += text.at(i);
            continue;
        }
        const QStringView rest = QStringView(text).mid(i + 1);
        if (rest.startsWith(u'e')) {
            out += QLatin1Char('\\');
            i += 1;
        } else if (rest.startsWith(u'-')) {
            out += QLatin1Char('-');
            i += 1;
        } else if (rest.startsWith(u'&')) {
            i += 1;
        } else if (rest.startsWith(u"(dq")) {
            out += QLatin1Char('"');
            i += 3;
        } else if (rest.startsWith(u"fB") || rest.startsWith(u"fI") || rest.startsWith(u"fR")) {
            i += 2;
        } else {
            malformed("a backslash that is not one of ManPage's escapes", page);
        }
    }
    return out;
}

QList<Block> blocksOf(const QString& page)
{
    static const QStringList requests { QStringLiteral("TH"), QStringLiteral("ad"), QStringLiteral("SH"),
        QStringLiteral("SS"), QStringLiteral("PP"), QStringLiteral("TP") };
    if (!page.endsWith(QLatin1Char('\n')))
        malformed("the page does not end with a line break", page);
    QList<Block> blocks;
    for (const QString& line : page.chopped(1).split(QLatin1Char('\n'))) {
        if (!line.startsWith(QLatin1Char('.')) && !line.startsWith(QLatin1Char('\''))) {
            if (blocks.isEmpty())
                malformed("text before .TH", page);
            blocks.last().lines.append(decoded(line, page));
            continue;
        }
        const qsizetype space = line.indexOf(QLatin1Char(' '));
        Block block { line.mid(1, space < 0 ? -1 : space - 1), {}, {} };
        if (!line.startsWith(QLatin1Char('.')) || !requests.contains(block.request))
            malformed("a line that roff reads as an unknown request", page);
        if (block.request == QLatin1String("SH") || block.request == QLatin1String("SS")) {
            const QString argument = line.mid(space + 1);
            if (argument.size() < 2 || !argument.startsWith(QLatin1Char('"')) || !argument.endsWith(QLatin1Char('"'))
                || argument.mid(1, argument.size() - 2).contains(QLatin1Char('"')))
                malformed("a heading that is not one quoted argument", page);
            block.argument = decoded(argument.mid(1, argument.size() - 2), page);
        }
        blocks.append(block);
    }
    return blocks;
}

// What a test expects of the page, block by block.
class Expectation {
public:
    void add(const QString& request, const QString& argument, const QStringList& lines)
    {
        m_blocks.append({ request, argument, lines });
    }

    void require(const QString& page) const
    {
        const QList<Block> blocks = blocksOf(page);
        FUZZ_REQUIRE(blocks.size() == m_blocks.size() + 2, "blocks: " + page.toUtf8()); // and .TH, .ad
        for (qsizetype i = 0; i < m_blocks.size(); ++i) {
            const Block& want = m_blocks.at(i);
            const Block& got = blocks.at(i + 2);
            FUZZ_REQUIRE(got.request == want.request && got.argument == want.argument && got.lines == want.lines,
                "block " + QByteArray::number(i) + ": ." + want.request.toUtf8() + " " + quotedForReport(want.argument)
                    + " " + quotedForReport(want.lines.join(u'\n')) + " reads back as ." + got.request.toUtf8() + " "
                    + quotedForReport(got.argument) + " " + quotedForReport(got.lines.join(u'\n')) + "\n"
                    + page.toUtf8());
        }
    }

private:
    QList<Block> m_blocks;
};

QStringList linesOf(const QString& text)
{
    return text.split(QLatin1Char('\n'));
}

// Headings and .TP tags are one line: a line break in one reads back as a blank.
QString oneLine(const QString& text)
{
    return QString(text).replace(QLatin1Char('\n'), QLatin1Char(' '));
}

} // namespace

extern "C" int LLVMFuzzerInitialize(int*, char***)
{
    // QCommandLineOption warns about every invalid name it drops; the page is written from what it keeps.
    qInstallMessageHandler([](QtMsgType, const QMessageLogContext&, const QString&) {});
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* bytes, size_t size)
{
    FuzzedDataProvider data(bytes, size);
    const QString summary = consumeText(data, 40);
    ManPage page(QStringLiteral("outboxctl"), summary);
    Expectation expected;
    expected.add(QStringLiteral("SH"), QStringLiteral("NAME"), linesOf(QStringLiteral("outboxctl - ") + summary));
    while (data.remaining_bytes() > 0) {
        switch (data.ConsumeIntegralInRange(0, 5)) {
        case 0: {
            const QString heading = consumeText(data, 20);
            page.section(heading);
            expected.add(QStringLiteral("SH"), oneLine(heading.toUpper()), {});
            break;
        }
        case 1: {
            const QString heading = consumeText(data, 20);
            page.subsection(heading);
            expected.add(QStringLiteral("SS"), oneLine(heading), {});
            break;
        }
        case 2: {
            const QString text = consumeText(data, 60);
            page.paragraph(text);
            expected.add(QStringLiteral("PP"), {}, linesOf(text));
            break;
        }
        case 3: {
            const QString arguments = consumeText(data, 40);
            page.synopsis(arguments);
            expected.add(QStringLiteral("PP"), {}, linesOf(QStringLiteral("outboxctl ") + arguments));
            break;
        }
        case 4: {
            QStringList names;
            for (int i = data.ConsumeIntegralInRange(1, 3); i > 0; --i)
                names.append(consumeText(data, 12));
            const QCommandLineOption option(names, consumeText(data, 40), consumeText(data, 10));
            page.options({ option });
            QStringList terms;
            for (const QString& name : option.names())
                terms.append((name.size() == 1 ? QStringLiteral("-") : QStringLiteral("--")) + name);
            QString term = terms.join(QStringLiteral(", "));
            if (!option.valueName().isEmpty())
                term += QLatin1Char(' ') + option.valueName();
            expected.add(QStringLiteral("TP"), {}, QStringList { oneLine(term) } + linesOf(option.description()));
            break;
        }
        default: {
            const QString term = consumeText(data, 20);
            const QString text = consumeText(data, 60);
            page.entry(term, text);
            expected.add(QStringLiteral("TP"), {}, QStringList { oneLine(term) } + linesOf(text));
            break;
        }
        }
    }
    expected.require(page.text());
    return 0;
}

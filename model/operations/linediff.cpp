// SPDX-License-Identifier: GPL-3.0-or-later
#include "operations/linediff.h"

#include <vector>

LineDiff::LineDiff(const QString& before, const QString& after)
{
    const QStringList a = before.split(QLatin1Char('\n'));
    const QStringList b = after.split(QLatin1Char('\n'));
    qsizetype head = 0;
    while (head < a.size() && head < b.size() && a.at(head) == b.at(head))
        ++head;
    qsizetype tail = 0;
    while (tail < a.size() - head && tail < b.size() - head && a.at(a.size() - 1 - tail) == b.at(b.size() - 1 - tail))
        ++tail;
    for (qsizetype i = 0; i < head; ++i)
        m_lines.append({ Line::Kind::Same, a.at(i) });

    const qsizetype n = a.size() - head - tail;
    const qsizetype m = b.size() - head - tail;
    if (n * m > MaxCells) {
        for (qsizetype i = 0; i < n; ++i)
            m_lines.append({ Line::Kind::Removed, a.at(head + i) });
        for (qsizetype j = 0; j < m; ++j)
            m_lines.append({ Line::Kind::Added, b.at(head + j) });
    } else {
        // common[i][j]: the longest common subsequence of a's middle from i and b's middle from j.
        std::vector<int> common(size_t((n + 1) * (m + 1)), 0);
        const auto at = [m](qsizetype i, qsizetype j) { return size_t(i * (m + 1) + j); };
        for (qsizetype i = n - 1; i >= 0; --i) {
            for (qsizetype j = m - 1; j >= 0; --j) {
                common[at(i, j)] = a.at(head + i) == b.at(head + j)
                    ? common[at(i + 1, j + 1)] + 1
                    : std::max(common[at(i + 1, j)], common[at(i, j + 1)]);
            }
        }
        qsizetype i = 0;
        qsizetype j = 0;
        while (i < n || j < m) {
            if (i < n && j < m && a.at(head + i) == b.at(head + j)) {
                m_lines.append({ Line::Kind::Same, a.at(head + i) });
                ++i;
                ++j;
            } else if (j < m && (i == n || common[at(i, j + 1)] > common[at(i + 1, j)])) {
                m_lines.append({ Line::Kind::Added, b.at(head + j) });
                ++j;
            } else {
                m_lines.append({ Line::Kind::Removed, a.at(head + i) });
                ++i;
            }
        }
    }
    for (qsizetype i = a.size() - tail; i < a.size(); ++i)
        m_lines.append({ Line::Kind::Same, a.at(i) });
}

bool LineDiff::isEmpty() const
{
    return removed() == 0 && added() == 0;
}

int LineDiff::removed() const
{
    return int(std::count_if(
        m_lines.cbegin(), m_lines.cend(), [](const Line& line) { return line.kind == Line::Kind::Removed; }));
}

int LineDiff::added() const
{
    return int(std::count_if(
        m_lines.cbegin(), m_lines.cend(), [](const Line& line) { return line.kind == Line::Kind::Added; }));
}

QStringList LineDiff::unified(int context) const
{
    // Each unchanged line is shown when a change is at most `context` lines away.
    const qsizetype count = m_lines.size();
    std::vector<qsizetype> distance(size_t(count), count + context + 1);
    qsizetype last = -1;
    for (qsizetype i = 0; i < count; ++i) {
        if (m_lines.at(i).kind != Line::Kind::Same)
            last = i;
        if (last >= 0)
            distance[size_t(i)] = i - last;
    }
    last = -1;
    for (qsizetype i = count - 1; i >= 0; --i) {
        if (m_lines.at(i).kind != Line::Kind::Same)
            last = i;
        if (last >= 0)
            distance[size_t(i)] = std::min(distance[size_t(i)], last - i);
    }
    QStringList out;
    bool elided = false;
    for (qsizetype i = 0; i < count; ++i) {
        const Line& line = m_lines.at(i);
        if (line.kind == Line::Kind::Same && distance[size_t(i)] > context) {
            if (!elided)
                out.append(QStringLiteral("…"));
            elided = true;
            continue;
        }
        elided = false;
        const QString mark = line.kind == Line::Kind::Removed ? QStringLiteral("- ")
            : line.kind == Line::Kind::Added                  ? QStringLiteral("+ ")
                                                              : QStringLiteral("  ");
        out.append(mark + line.text);
    }
    return out;
}

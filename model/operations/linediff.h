// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include <QList>
#include <QString>
#include <QStringList>

// The difference between two texts, line by line: what an operator confirms before an edit is applied, and what
// the audit log shows of it afterwards. A shortest edit (longest common subsequence) between the lines that differ
// after the common beginning and end; past MaxCells of comparison it shows the differing middle as removed and added
// whole rather than spend seconds on a huge payload.
class LineDiff final {
public:
    struct Line {
        enum class Kind { Same, Removed, Added };
        Kind kind = Kind::Same;
        QString text;
        bool operator==(const Line&) const = default;
    };

    static constexpr qsizetype MaxCells = 4'000'000;

    LineDiff(const QString& before, const QString& after);

    const QList<Line>& lines() const { return m_lines; }
    bool isEmpty() const; // true when the texts are the same
    int removed() const;
    int added() const;

    // "- " for a removed line, "+ " for an added one, "  " for an unchanged one; at most `context` unchanged lines
    // on either side of a change, and one "…" line where unchanged ones are left out.
    QStringList unified(int context) const;

private:
    QList<Line> m_lines;
};

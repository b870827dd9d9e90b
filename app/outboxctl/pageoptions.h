// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "export/recordtable.h"

#include <optional>

class ArgumentParser;

// --limit, --after and --format of the commands that page through a table newest first (list, audit), and how
// they print a page: the rows, the next cursor (in JSON, and as "next page: --after ID" on stderr otherwise).
struct PageOptions {
    int limit = 50;
    qint64 beforeId = 0; // 0: from the newest
    RecordTable::Format format = RecordTable::Format::Table;

    // `rows` names what a page holds, for --limit's help ("Rows", "Entries").
    static void add(ArgumentParser& parser, const QString& rows);
    static PageOptions parse(const ArgumentParser& parser);

    // `arrayKey` names the rows in JSON; `lastId` is the page's last row's id when the page is full (more may follow).
    void print(const RecordTable& page, const QString& arrayKey, std::optional<qint64> lastId) const;
};

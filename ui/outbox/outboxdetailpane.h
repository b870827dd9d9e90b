// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/dossierpane.h"

class QLabel;
class QPlainTextEdit;
class QTreeWidget;
struct OutboxDossier;

// Everything about one outbox row, read on demand for the selected row only: payload and headers,
// the full last error, every failed attempt, the operator actions on it, and the idempotency record and
// order it came from.
class OutboxDetailPane final : public DossierPane {
    Q_OBJECT
public:
    explicit OutboxDetailPane(DatabaseClient& worker, QWidget* parent = nullptr);

    void showRow(qint64 id); // 0 clears the pane
    qint64 shownRow() const { return shownId(); }

    // "1 attempt since the requeue at …, 5 in total" (or just "5 attempts" when nothing was reset).
    static QString attemptsText(const OutboxDossier& dossier);
    // The row's ordering key and what it means now: the row it waits behind (a link), or how many rows of the key
    // it holds back. Empty for an unordered row.
    static QString orderingText(const OutboxDossier& dossier);

signals:
    // The operator followed the link to another row (the one this row waits behind).
    void rowLinkActivated(qint64 id);

private:
    void present(const OutboxDossier& dossier);

    QPlainTextEdit* m_payload;
    QPlainTextEdit* m_headers;
    QPlainTextEdit* m_error;
    QTreeWidget* m_attempts;
    QTreeWidget* m_audit;
    QLabel* m_links;
    qint64 m_presentedId = 0;
};

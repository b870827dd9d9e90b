// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "common/dossierpane.h"

struct KeyDossier;
class QPlainTextEdit;
class QPushButton;
class QTreeWidget;

// Everything about one idempotency key, read on demand for the selected key only: the full record and
// fingerprint, the stored response, where the key stands (executing, released or final) and the outbox
// rows of the order it created.
class KeyDetailPane final : public DossierPane {
    Q_OBJECT
public:
    explicit KeyDetailPane(DatabaseClient& worker, QWidget* parent = nullptr);

    void showKey(qint64 id); // 0 clears the pane
    qint64 shownKey() const { return shownId(); }

signals:
    // "Show its outbox rows" under the order's rows: the Outbox tab on the rows the key's request wrote.
    void showOutboxRowsRequested();

private:
    void present(const KeyDossier& dossier);

    QTreeWidget* m_record;
    QPlainTextEdit* m_response;
    QTreeWidget* m_events;
    QPushButton* m_showOutboxRows;
};

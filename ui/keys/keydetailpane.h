// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/latestrequest.h"

#include <QWidget>

class DatabaseClient;
struct KeyDossier;
class QLabel;
class QPlainTextEdit;
class QTabWidget;
class QTreeWidget;

// Everything about one idempotency key, read on demand for the selected key only: the full record and
// fingerprint, the stored response, where the key stands (executing, released or final) and the outbox
// rows of the order it created.
class KeyDetailPane final : public QWidget {
    Q_OBJECT
public:
    explicit KeyDetailPane(DatabaseClient& worker, QWidget* parent = nullptr);

    void showKey(qint64 id); // 0 clears the pane
    qint64 shownKey() const { return m_id; }

private:
    void present(const KeyDossier& dossier);

    DatabaseClient& m_worker;
    qint64 m_id = 0;
    LatestRequest m_requests;
    QLabel* m_summary;
    QTabWidget* m_tabs;
    QTreeWidget* m_record;
    QPlainTextEdit* m_response;
    QTreeWidget* m_events;
};

// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/databaseclient.h"
#include "core/latestrequest.h"

#include <QLabel>
#include <QWidget>
#include <functional>

class QTabWidget;

// The frame the detail panes share: a summary line above tabs, and the dossier of the selected entity, read on
// the worker only when it is selected. A newer selection wins over a read still on its way.
class DossierPane : public QWidget {
    Q_OBJECT
public:
    qint64 shownId() const { return m_id; }

protected:
    DossierPane(DatabaseClient& worker, QWidget* parent);

    QLabel* summary() const { return m_summary; }
    QTabWidget* tabs() const { return m_tabs; }

    struct Texts {
        QString empty; // the summary when nothing is selected
        QString loading;
        QString failed; // with %1 for the error
    };
    // Shows the dossier `read` returns for `id` (0: an empty one, with texts.empty as the summary).
    template<typename Dossier>
    void showDossier(qint64 id, const Texts& texts, std::function<Dossier(DbSession&)> read,
        std::function<void(const Dossier&)> present)
    {
        m_id = id;
        m_requests.next(); // whatever is on its way for the previous selection is stale now
        if (id == 0) {
            present(Dossier {});
            m_summary->setText(texts.empty);
            return;
        }
        m_summary->setText(texts.loading);
        m_worker.runLatest<Dossier>(m_requests, this, std::move(read), std::move(present),
            [this, failed = texts.failed](
                const OutboxError& error) { m_summary->setText(failed.arg(error.message())); });
    }

private:
    DatabaseClient& m_worker;
    qint64 m_id = 0;
    LatestRequest m_requests;
    QLabel* m_summary;
    QTabWidget* m_tabs;
};

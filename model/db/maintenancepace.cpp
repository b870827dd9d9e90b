// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/maintenancepace.h"

#include <QThread>
#include <algorithm>

MaintenancePace::MaintenancePace()
{
    m_step.start();
}

void MaintenancePace::rest()
{
    QThread::msleep(static_cast<unsigned long>(std::min<qint64>(m_step.elapsed() * RestPerStepWork, MaxRestMs)));
    m_step.start();
}

// SPDX-License-Identifier: GPL-3.0-or-later
#include "db/maintenancepace.h"

#include <QThread>
#include <algorithm>

MaintenancePace::MaintenancePace(int restPerStepWork)
    : m_restPerStepWork(restPerStepWork)
{
    m_step.start();
}

void MaintenancePace::rest()
{
    QThread::msleep(static_cast<unsigned long>(std::min<qint64>(m_step.elapsed() * m_restPerStepWork, MaxRestMs)));
    m_step.start();
}

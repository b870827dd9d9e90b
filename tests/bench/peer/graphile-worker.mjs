// SPDX-License-Identifier: GPL-3.0-or-later
// Graphile Worker for outbox-bench's peer mode (tests/bench/peerbench.cpp), on the PostgreSQL the libpq environment
// names (PGHOST, PGPORT, PGDATABASE, PGUSER, PGPASSWORD: node-postgres reads them as libpq does):
//   node graphile-worker.mjs migrate   installs or upgrades its schema, graphile_worker, and exits
//   node graphile-worker.mjs work      runs one worker instance with a task "noop" that does nothing, until SIGTERM
// The instance runs Graphile Worker's own best configuration, from its performance page: 24 jobs at a time on a pool
// of 25 connections, jobs fetched 500 at a time into a local queue, completions batched.
import pg from "pg";
import { Logger, run, runMigrations } from "graphile-worker";

const mode = process.argv[2];
const pgPool = new pg.Pool({ max: 25 });
const reportError = (error) => console.error(`graphile-worker: ${error.message}`);
pgPool.on("error", reportError);
pgPool.on("connect", (client) => client.on("error", reportError));
// Warnings and errors only: a line per job would measure the terminal.
const logger = new Logger(() => (level, message) => {
    if (level === "error" || level === "warning") console.error(`graphile-worker: ${message}`);
});
const preset = {
    worker: {
        concurrentJobs: 24,
        maxPoolSize: 25,
        localQueue: { size: 500 },
        completeJobBatchDelay: 0,
        failJobBatchDelay: 0,
    },
};

if (mode === "migrate") {
    await runMigrations({ pgPool, preset, logger });
    await pgPool.end();
} else if (mode === "work") {
    const runner = await run({ pgPool, preset, logger, noHandleSignals: true, taskList: { noop: async () => {} } });
    process.on("SIGTERM", () => runner.stop());
    // The parent reads this line to know the instance runs.
    console.log("working");
    await runner.promise;
    await pgPool.end();
} else {
    console.error("usage: node graphile-worker.mjs migrate|work");
    process.exit(2);
}

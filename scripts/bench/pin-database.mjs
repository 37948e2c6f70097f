// `npm run bench` on PostgreSQL: the database's backend processes of the bench database moved to the
// load generator's core, so that the measured process (the server, or the raw-driver loop) has its
// core to itself, as it has when the database runs on its own machine. Left to the scheduler, the
// backends are woken onto the core of the process that wrote to them (the server's): they preempt
// it and the same read measures half as fast, and differently from run to run (docs/PERFORMANCE.md).
// Only for a database on this machine, with `taskset`, and when this user may move its processes.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * Moves every backend of `sql`'s database (other than `sql`'s own) to `core`. `sql` is a postgres.js
 * client on that database. Returns how many moved and, when it had to stop, why.
 */
export async function pinDatabaseBackends(sql, core) {
  const rows =
    await sql`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`;
  let moved = 0;
  for (const { pid } of rows) {
    if (!existsSync(`/proc/${pid}`)) return { moved, why: 'the database is on another machine' };
    try {
      execFileSync('taskset', ['-cp', String(core), String(pid)], { stdio: 'ignore' });
      moved++;
    } catch {
      return { moved, why: `taskset may not move the database's processes (pid ${pid})` };
    }
  }
  return { moved };
}

// `npm run bench` on PostgreSQL: the database's backend processes of the bench database moved to the
// load generator's core, so that the measured process (the server, or the raw-driver loop) has its
// core to itself, as it has when the database runs on its own machine. Left to the scheduler, the
// backends are woken onto the core of the process that wrote to them (the server's): they preempt
// it and the same read measures half as fast, and differently from run to run (docs/PERFORMANCE.md).
// Only for a database on this machine, with `taskset`, and when this user may move its processes.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';

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

/**
 * CPU time (µs; user and system) the backends of `sql`'s database (other than `sql`'s own) have
 * used so far, read from /proc; NaN for a database on another machine. Backends that end between
 * two readings drop out of the sum, so read it around a run that keeps its connections.
 */
export async function databaseCpu(sql) {
  const rows =
    await sql`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`;
  let total = 0;
  for (const { pid } of rows) {
    try {
      const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
      // utime and stime (fields 14 and 15 of proc(5)), in clock ticks of 10 ms.
      total += (Number(fields[11]) + Number(fields[12])) * 10_000;
    } catch {
      return NaN;
    }
  }
  return total;
}

// Prints pg-boss's own schema (its construction plan, for the installed version) as a Drizzle
// migration: the statements apart (`--> statement-breakpoint`), without the plan's BEGIN/COMMIT
// (the migrator runs each migration in a transaction). Decision 029: pg-boss's schema is part of the
// product's one set of migrations; a pg-boss upgrade adds a migration from its getMigrationPlans.
//   node apps/api/scripts/pg-boss-schema.mjs > apps/api/src/db/migrations/00NN_job_queue.sql
import { createRequire } from 'node:module';

const require = createRequire(new URL('../package.json', import.meta.url));
const PgBoss = require('pg-boss');
const { version } = require('pg-boss/package.json');

/** Statements split at top-level semicolons (not inside a $$ … $$ function body). */
function statements(text) {
  const found = [];
  let current = '';
  let inBody = false;
  for (let i = 0; i < text.length; i++) {
    if (text.startsWith('$$', i)) {
      inBody = !inBody;
      current += '$$';
      i += 1;
      continue;
    }
    if (text[i] === ';' && !inBody) {
      if (current.trim()) found.push(current.trim());
      current = '';
      continue;
    }
    current += text[i];
  }
  if (current.trim()) found.push(current.trim());
  return found;
}

const transactionOnly = /^(BEGIN|COMMIT|SET LOCAL|SELECT pg_advisory_xact_lock)/;
const body = statements(PgBoss.getConstructionPlans('pgboss')).filter((statement) => !transactionOnly.test(statement));
process.stdout.write(
  `-- pg-boss ${version}'s schema (its construction plan; apps/api/scripts/pg-boss-schema.mjs, decision 029).\n` +
    body.map((statement) => `${statement};`).join('\n--> statement-breakpoint\n') +
    '\n',
);

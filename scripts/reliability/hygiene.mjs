#!/usr/bin/env node
// Issue 13, suite 7 (hygiene): after the e2e run, the servers' logs and database dumps hold no
// plaintext tax id, birth date, code, PIN, password or token; tax ids and birth dates are stored
// as ciphertext. Reads test-results/hygiene/ (written by e2e/global-setup.ts and e2e/hygiene-ledger.ts).
//
//   node scripts/reliability/hygiene.mjs [--dir test-results/hygiene] [--partial]
//
// --partial: a subset of the e2e suite ran; kinds of secret it never met are not an error.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import {
  REQUIRED_KINDS,
  buildNeedles,
  checkEncryptedColumns,
  harvestCarrier,
  parseLedger,
  scanFile,
} from './hygiene-scan.mjs';

const args = process.argv.slice(2);
const dirArg = args.indexOf('--dir');
const dir = resolve(
  dirArg >= 0 ? args[dirArg + 1] : (process.env.HYGIENE_DIR ?? join(import.meta.dirname, '../../test-results/hygiene')),
);
const partial = args.includes('--partial');
const shown = (file) => relative(process.cwd(), join(dir, file));

function fail(message) {
  console.error(`hygiene: ${message}`);
  process.exit(1);
}

if (!existsSync(dir)) fail(`${dir} does not exist: run the e2e suite first (npx playwright test).`);
const files = readdirSync(dir).sort();
const logs = files.filter((file) => file.endsWith('.log'));
const dumps = files.filter((file) => file.endsWith('.dump.txt'));
if (logs.length === 0) fail(`no server log in ${dir}: run the e2e suite first.`);
if (dumps.length === 0) fail(`no database dump in ${dir}: the e2e teardown writes them.`);
if (!files.includes('secrets.jsonl')) fail(`no secrets.jsonl in ${dir}: the e2e ledger recorded nothing.`);

const started = Date.now();
const ledger = parseLedger(readFileSync(join(dir, 'secrets.jsonl'), 'utf8'));
const dumpTexts = new Map(dumps.map((file) => [file, readFileSync(join(dir, file), 'utf8')]));
const harvested = [...dumpTexts.values()].flatMap((text) => harvestCarrier(text));
const needles = buildNeedles([...ledger, ...harvested]);

const missing = REQUIRED_KINDS.filter((kind) => needles.count[kind] === 0);
if (missing.length > 0 && !partial)
  fail(`the ledger has no ${missing.join(', ')}: the e2e run or its ledger is incomplete (--partial after a subset).`);

const findings = [];
const figures = [];
for (const file of logs) {
  const result = scanFile(shown(file), readFileSync(join(dir, file), 'utf8'), needles, { kind: 'log' });
  findings.push(...result.findings);
  figures.push(`  ${shown(file)}: ${result.lines} log lines, ${(result.bytes / 1e6).toFixed(1)} MB`);
}
const columns = {};
for (const [file, text] of dumpTexts) {
  const result = scanFile(shown(file), text, needles, { kind: 'dump' });
  findings.push(...result.findings);
  const encrypted = checkEncryptedColumns(shown(file), text);
  findings.push(...encrypted.problems);
  for (const [column, count] of Object.entries(encrypted.checked)) columns[column] = (columns[column] ?? 0) + count;
  figures.push(`  ${shown(file)}: ${result.rows} rows, ${(result.bytes / 1e6).toFixed(1)} MB`);
}

const byKind = Object.entries(needles.count)
  .map(([kind, count]) => `${kind} ${count}`)
  .join(', ');
console.log('hygiene: logs and database dumps of the e2e servers');
console.log(figures.join('\n'));
console.log(
  `  secrets looked for by value: ${byKind} (${ledger.length} from the e2e ledger, ${harvested.length} from the SMS outbox)`,
);
console.log(
  `  encrypted columns checked: ${Object.entries(columns)
    .map(([column, count]) => `${column} ${count}`)
    .join(', ')}`,
);
console.log(`  findings: ${findings.length} (${((Date.now() - started) / 1000).toFixed(1)} s)`);
if (missing.length > 0) console.log(`  (partial run: no ${missing.join(', ')} recorded)`);

if (findings.length > 0) {
  const limit = 200;
  for (const finding of findings.slice(0, limit))
    console.error(`${finding.file}:${finding.line}  ${finding.kind}  ${finding.how}  ${finding.excerpt}`);
  if (findings.length > limit) console.error(`… and ${findings.length - limit} more`);
  process.exit(1);
}

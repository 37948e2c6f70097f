import { POLICY_RULES, type CreditPolicyDocument, type PolicyRuleSpec, type SavePolicyDraftBody } from '@provee/domain';
import { BackofficeError } from '../api.js';

/**
 * The policy editor's form: what the analyst types (numbers as text, so a half-typed value stays
 * on screen), made from a version's document and turned back into the document a save sends.
 */
export interface RuleField {
  /** An optional rule the version applies (a rule that is not optional always applies). */
  applied: boolean;
  /** A number as typed; 'approve' or 'reject' for a thin file; 'true' or 'false' for a yes/no. */
  value: string;
  /** What a decision records when the rule refuses. */
  reason: string;
}

export interface PolicyForm {
  description: string;
  rules: Record<string, RuleField>;
  /** Base amount by weekly-sales range, lowest range first. */
  amounts: string[];
  bands: { min_score: string; factor: string }[];
  cap: string;
}

/** Where a rule's threshold and its reason are in the document (the API's issue paths, past `body.document.`). */
export const thresholdPath = (spec: PolicyRuleSpec) => `${spec.section}.${spec.field}`;
export const reasonPath = (spec: PolicyRuleSpec) => `reasons.${spec.rule}`;

/** A rule's threshold in a document (undefined: an optional rule the version leaves out). */
const thresholdOf = (document: CreditPolicyDocument, spec: PolicyRuleSpec): unknown =>
  // Not the domain's ruleThreshold: its module holds the document's zod schema, which the browser leaves out.
  (document[spec.section] as Record<string, unknown>)[spec.field];

export function formOf(document: CreditPolicyDocument): PolicyForm {
  const rules: Record<string, RuleField> = {};
  for (const spec of POLICY_RULES) {
    const threshold = thresholdOf(document, spec);
    rules[spec.rule] = {
      applied: threshold !== undefined,
      value: threshold === undefined ? '' : String(threshold),
      reason: document.reasons[spec.rule] ?? '',
    };
  }
  return {
    description: document.description ?? '',
    rules,
    amounts: document.amount.by_sales_range.map(String),
    bands: document.amount.score_bands.map((band) => ({
      min_score: String(band.min_score),
      factor: String(band.factor),
    })),
    cap: String(document.amount.cap),
  };
}

/**
 * A number as people type it: spaces and thousands separators left out; a decimal comma for a
 * factor. Empty or unreadable goes as none (JSON null), and the API names the field in words.
 */
const whole = (text: string) =>
  text.trim() === '' ? Number.NaN : Number(text.replace(/\s/g, '').replace(/,(?=\d{3}(?!\d))/g, ''));
const decimal = (text: string) => (text.trim() === '' ? Number.NaN : Number(text.trim().replace(',', '.')));

type DraftDocument = SavePolicyDraftBody['document'];

export function documentOf(form: PolicyForm): DraftDocument {
  const sections: Record<PolicyRuleSpec['section'], Record<string, unknown>> = { eligibility: {}, guarantor: {} };
  const reasons: Record<string, string> = {};
  for (const spec of POLICY_RULES) {
    const field = form.rules[spec.rule]!;
    // An optional rule left out is absent from the document: it decides nothing.
    if (!spec.optional || field.applied)
      sections[spec.section][spec.field] =
        spec.kind === 'number' ? whole(field.value) : spec.kind === 'boolean' ? field.value === 'true' : field.value;
    if (field.reason.trim()) reasons[spec.rule] = field.reason;
  }
  const description = form.description.trim();
  return {
    ...(description ? { description: form.description } : {}),
    eligibility: sections.eligibility as DraftDocument['eligibility'],
    reasons,
    guarantor: sections.guarantor as DraftDocument['guarantor'],
    amount: {
      by_sales_range: form.amounts.map(whole),
      score_bands: form.bands.map((band) => ({ min_score: whole(band.min_score), factor: decimal(band.factor) })),
      cap: whole(form.cap),
    },
  };
}

/**
 * A refusal split for the screen: each field's message by its path past `prefix` (a save's
 * `body.document.`), shown under its input when the form has that input, and the rest (a 409, a
 * message of no field shown) for the form's own message.
 */
export function splitIssues(
  error: BackofficeError | string | null,
  shown: ReadonlySet<string>,
  prefix = 'body.document.',
): { byPath: Record<string, string>; rest: BackofficeError | string | null } {
  const byPath: Record<string, string> = {};
  if (!(error instanceof BackofficeError) || error.issues.length === 0) return { byPath, rest: error };
  const others = error.issues.filter((issue) => {
    const path = issue.field.startsWith(prefix) ? issue.field.slice(prefix.length) : issue.field;
    if (!shown.has(path)) return true;
    byPath[path] ??= issue.message;
    return false;
  });
  return { byPath, rest: new BackofficeError(error.status, error.code, error.readableMessage, others) };
}

/** Every path the form has an input (or a list) for, to know which messages it shows in place. */
export function shownPaths(form: PolicyForm): Set<string> {
  const paths = new Set(['description', 'amount.by_sales_range', 'amount.score_bands', 'amount.cap']);
  for (const spec of POLICY_RULES) {
    paths.add(thresholdPath(spec));
    paths.add(reasonPath(spec));
  }
  form.amounts.forEach((_, index) => paths.add(`amount.by_sales_range.${index}`));
  form.bands.forEach((_, index) => {
    paths.add(`amount.score_bands.${index}.min_score`);
    paths.add(`amount.score_bands.${index}.factor`);
  });
  return paths;
}

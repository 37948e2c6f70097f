import type { Executor } from '../../db/client.js';
import { insertShadowDecision } from './live.store.js';
import type { LivePolicy } from './policy-book.js';
import { evaluate, type DecisionInputs } from './policy.js';

/**
 * The shadow version's outcome beside a decision the live one made (issue 33), in the decision's
 * transaction: stored and compared, never acted on.
 */
export async function recordShadowDecision(
  tx: Executor,
  live: LivePolicy,
  decision: { id: string; inputs: DecisionInputs; at: Date },
): Promise<void> {
  if (!live.shadow) return;
  const outcome = evaluate(live.shadow.policy, decision.inputs);
  await insertShadowDecision(tx, {
    decisionId: decision.id,
    policyId: live.shadow.id,
    result: outcome.result,
    reasons: outcome.rules.filter((rule) => !rule.passed).map((rule) => rule.rule),
    createdAt: decision.at,
  });
}

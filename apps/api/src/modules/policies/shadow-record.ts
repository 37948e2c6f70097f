import type { FastifyBaseLogger } from 'fastify';
import type { Tx } from '../../db/client.js';
import { insertShadowDecision } from './live.store.js';
import type { LivePolicy } from './policy-book.js';
import { evaluate, type DecisionInputs } from './policy.js';

/**
 * The shadow version's outcome beside a decision the live one made (issue 33), in the decision's
 * transaction: stored and compared, never acted on. It cannot fail the decision: an error of its
 * own is logged and its row left out (a savepoint undoes a failed insert alone).
 */
export async function recordShadowDecision(
  tx: Tx,
  live: LivePolicy,
  decision: { id: string; inputs: DecisionInputs; at: Date },
  log: FastifyBaseLogger,
): Promise<void> {
  const shadow = live.shadow;
  if (!shadow) return;
  try {
    const outcome = evaluate(shadow.policy, decision.inputs);
    await tx.transaction((savepoint) =>
      insertShadowDecision(savepoint, {
        decisionId: decision.id,
        policyId: shadow.id,
        result: outcome.result,
        reasons: outcome.rules.filter((rule) => !rule.passed).map((rule) => rule.rule),
        createdAt: decision.at,
      }),
    );
  } catch (error) {
    log.error({ err: error, policy: shadow.id }, 'credit policy: the shadow outcome was not recorded');
  }
}

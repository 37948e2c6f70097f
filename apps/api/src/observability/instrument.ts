import { SpanKind } from '@opentelemetry/api';
import { providerCalls, providerDuration } from './metrics.js';
import { inChildSpan } from './spans.js';

/**
 * A provider (SMS, reverse OTP, bureau, places) whose asynchronous calls are counted by outcome and
 * timed, by provider and operation (the method's name), and traced: each call a span of the trace
 * it is made in, the provider's own HTTP request nested under it. Synchronous members pass through
 * as they are: they call no one. The provider's own errors are rethrown untouched.
 */
export function instrumented<T extends object>(provider: string, target: T): T {
  return new Proxy(target, {
    get(object, key) {
      const value: unknown = Reflect.get(object, key, object);
      if (typeof value !== 'function' || typeof key !== 'string') return value;
      const attributes = { 'provee.provider': provider, 'provee.provider.operation': key };
      return (...args: unknown[]) =>
        inChildSpan(`${provider} ${key}`, SpanKind.CLIENT, attributes, () => {
          const result: unknown = (value as (...args: unknown[]) => unknown).apply(object, args);
          if (!(result instanceof Promise)) return result;
          const labels = { provider, operation: key };
          const stopTimer = providerDuration.startTimer(labels);
          return result.then(
            (answer: unknown) => {
              stopTimer();
              providerCalls.inc({ ...labels, outcome: 'ok' });
              return answer;
            },
            (error: unknown) => {
              stopTimer();
              providerCalls.inc({ ...labels, outcome: 'error' });
              throw error;
            },
          );
        });
    },
  });
}

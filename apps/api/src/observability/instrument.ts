import { providerCalls, providerDuration } from './metrics.js';

/**
 * A provider (SMS, reverse OTP, bureau, places) whose asynchronous calls are counted by outcome and
 * timed, by provider and operation (the method's name). Synchronous members pass through as they
 * are: they call no one. The provider's own errors are rethrown untouched.
 */
export function instrumented<T extends object>(provider: string, target: T): T {
  return new Proxy(target, {
    get(object, key) {
      const value: unknown = Reflect.get(object, key, object);
      if (typeof value !== 'function' || typeof key !== 'string') return value;
      return (...args: unknown[]) => {
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
      };
    },
  });
}

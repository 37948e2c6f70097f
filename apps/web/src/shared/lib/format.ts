/** '+1', '8095551234' → '+1 809 555 1234' */
export function formatPhone(prefix: string, digits: string): string {
  return `${prefix} ${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6)}`.trim();
}

/** '+1', '+18095550101' → '+1 809 555 0101'; a number of another country is shown as it comes. */
export function formatE164(prefix: string, e164: string): string {
  return e164.startsWith(prefix) ? formatPhone(prefix, e164.slice(prefix.length)) : e164;
}

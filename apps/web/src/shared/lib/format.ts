/** '+1', '8095551234' → '+1 809 555 1234' */
export function formatPhone(prefix: string, digits: string): string {
  return `${prefix} ${digits.slice(0, 3)} ${digits.slice(3, 6)} ${digits.slice(6)}`.trim();
}

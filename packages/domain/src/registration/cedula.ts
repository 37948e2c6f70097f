/**
 * Dominican cédula (JCE): 11 digits shown 3-7-1 (001-1234567-8). The last digit checks the
 * other ten with the Luhn scheme: weights 1,2,1,2…; a two-digit product counts its digits.
 */
export function cedulaCheckDigit(firstTen: string): number {
  let sum = 0;
  for (let i = 0; i < 10; i++) {
    const product = Number(firstTen[i]) * (i % 2 === 0 ? 1 : 2);
    sum += product > 9 ? product - 9 : product;
  }
  return (10 - (sum % 10)) % 10;
}

export function isValidCedula(value: string): boolean {
  const digits = value.replace(/-/g, '');
  return /^\d{11}$/.test(digits) && cedulaCheckDigit(digits.slice(0, 10)) === Number(digits[10]);
}

/** What the field keeps of any input: digits only, at most 11, dashed 3-7-1 as they arrive. */
export function formatCedula(value: string): string {
  return dashCedula(value.replace(/\D/g, '').slice(0, 11));
}

/** Up to 11 characters dashed 3-7-1 as far as they go ('001', '001-123', '001-1234567-8'). */
export function dashCedula(chars: string): string {
  if (chars.length <= 3) return chars;
  if (chars.length <= 10) return `${chars.slice(0, 3)}-${chars.slice(3)}`;
  return `${chars.slice(0, 3)}-${chars.slice(3, 10)}-${chars.slice(10)}`;
}

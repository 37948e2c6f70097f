/** A messaging-app chat link with prefilled text (help button, support, advisor chat). */
export function chatLink(number: string, text: string): string {
  const digits = number.replace(/\D/g, '');
  return `https://wa.me/${digits}?text=${encodeURIComponent(text)}`;
}

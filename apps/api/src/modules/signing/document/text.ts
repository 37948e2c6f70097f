import type { PDFFont } from 'pdf-lib';

/**
 * The standard PDF fonts encode WinAnsi only, and pdf-lib throws on anything else. Names and user
 * agents can hold emoji, CJK or symbols: each such character becomes '?' (one per code point, so
 * an emoji is one '?'), control characters and line breaks become spaces.
 */
const characterSets = new WeakMap<PDFFont, Set<number>>();

export function pdfSafe(text: string, font: PDFFont): string {
  let supported = characterSets.get(font);
  if (!supported) {
    supported = new Set(font.getCharacterSet());
    characterSets.set(font, supported);
  }
  let out = '';
  for (const char of text.normalize('NFC')) {
    const code = char.codePointAt(0)!;
    if (/\s/u.test(char) || code < 0x20 || (code >= 0x7f && code < 0xa0)) out += ' ';
    else out += supported.has(code) ? char : '?';
  }
  return out;
}

/**
 * Lines of at most maxWidth points. Breaks at spaces; a word wider than a line (a user agent, a
 * hash, a long name) is cut where it reaches the edge. '\n' starts a new line. Text is made safe first.
 */
export function wrapText(text: string, font: PDFFont, size: number, maxWidth: number): string[] {
  const width = (s: string) => font.widthOfTextAtSize(s, size);
  const lines: string[] = [];
  for (const paragraph of text.split(/\r\n|\r|\n/)) {
    let line = '';
    for (const word of pdfSafe(paragraph, font).split(' ').filter(Boolean)) {
      const candidate = line ? `${line} ${word}` : word;
      if (width(candidate) <= maxWidth) {
        line = candidate;
        continue;
      }
      if (line) lines.push(line);
      let rest = word;
      while (width(rest) > maxWidth) {
        let cut = 1;
        while (cut < rest.length && width(rest.slice(0, cut + 1)) <= maxWidth) cut++;
        lines.push(rest.slice(0, cut));
        rest = rest.slice(cut);
      }
      line = rest;
    }
    lines.push(line);
  }
  return lines;
}

// C0/C1 controls, bidi marks, embeddings, overrides, isolates (Unicode TR9), line separators.
const UNSAFE = /[\p{Cc}\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/gu;

const escape = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

/** So stored text cannot redraw or fake the output around it; JSON reads the escape back. */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, escape);
}

export function terminalSafeLines(text: string): string {
  return text.split('\n').map(terminalSafe).join('\n');
}

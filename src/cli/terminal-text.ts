// Controls (C0 and C1: ESC starts terminal sequences; DEL), the bidi marks, embeddings, overrides
// and isolates (Unicode TR9), and the line and paragraph separators.
const UNSAFE = /[\p{Cc}\u061c\u200e\u200f\u2028-\u202e\u2066-\u2069]/gu;

const escape = (char: string) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;

/**
 * Stored text as the CLI prints it: every character a terminal would act on instead of showing
 * (clear the screen, move the cursor, reverse the line) written as `\uXXXX`, so a value cannot
 * redraw or fake the output around it. Inside JSON strings the escape reads back as the character.
 */
export function terminalSafe(text: string): string {
  return text.replace(UNSAFE, escape);
}

/** The same for whole lines of output, whose own line breaks stay. */
export function terminalSafeLines(text: string): string {
  return text.split('\n').map(terminalSafe).join('\n');
}

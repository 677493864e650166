import { describe, expect, it } from 'vitest';
import { terminalSafe, terminalSafeLines } from './terminal-text.js';

describe('terminal-safe text', () => {
  it('should escape controls, DEL, C1, bidi and line separators as \\uXXXX, and keep the rest', () => {
    expect(terminalSafe('a\u001b[31mb\u0000\t\r\n\u007f\u009b\u061c\u200e\u200f')).toBe(
      'a\\u001b[31mb\\u0000\\u0009\\u000d\\u000a\\u007f\\u009b\\u061c\\u200e\\u200f',
    );
    expect(terminalSafe('\u202a\u202e\u2066\u2069\u2028\u2029')).toBe(
      '\\u202a\\u202e\\u2066\\u2069\\u2028\\u2029',
    );
    expect(terminalSafe('Café 🐕‍🦺 \\u001b ключ')).toBe('Café 🐕‍🦺 \\u001b ключ');
  });

  it('should keep the line breaks of whole output, and leave JSON reading back the same', () => {
    expect(terminalSafeLines('one\u001b\ntwo\r')).toBe('one\\u001b\ntwo\\u000d');
    const json = JSON.stringify({ name: 'x\u202ey\u0085\u2028' });
    expect(JSON.parse(terminalSafeLines(json))).toEqual({ name: 'x\u202ey\u0085\u2028' });
  });
});

import { describe, expect, it } from 'vitest';
import { keyHint } from './key-hint.js';

describe('keyHint', () => {
  it('should warn with the command that creates a key while no key can call the server', () => {
    expect(keyHint(0)).toEqual({
      level: 'warn',
      message:
        'No API key can call this server yet; create one with: npm run --silent cli -- keys create --plan free',
    });
  });

  it('should remind of the command when keys exist, counting them in the right number', () => {
    expect(keyHint(1).message).toBe(
      '1 API key can call this server; create another with: npm run --silent cli -- keys create --plan free',
    );
    expect(keyHint(3)).toMatchObject({
      level: 'log',
      message: expect.stringMatching(/^3 API keys can/),
    });
  });
});

export const CREATE_KEY_COMMAND = 'npm run --silent cli -- keys create --plan free';

export function keyHint(usableKeys: number): { level: 'warn' | 'log'; message: string } {
  if (usableKeys === 0) {
    return {
      level: 'warn',
      message: `No API key can call this server yet; create one with: ${CREATE_KEY_COMMAND}`,
    };
  }
  const keys = usableKeys === 1 ? '1 API key' : `${usableKeys} API keys`;
  return {
    level: 'log',
    message: `${keys} can call this server; create another with: ${CREATE_KEY_COMMAND}`,
  };
}

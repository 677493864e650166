import { describe, expect, it } from 'vitest';
import { checkWebhookUrl, isBlockedAddress, parseWebhookUrl } from './address-policy.js';

describe('isBlockedAddress', () => {
  it.each([
    '127.0.0.1',
    '127.255.0.9',
    '10.1.2.3',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.100.100.200',
    '0.0.0.0',
    '224.0.0.1',
    '::1',
    '::',
    'fe80::1',
    'fe80::1%eth0',
    'fd00:ec2::254',
    'fc00::1',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:169.254.169.254',
    '::ffff:a9fe:a9fe',
    '64:ff9b::10.0.0.1',
    '2002:7f00:1::',
    '64:ff9b:1::7f00:1',
    '::ffff:0:7f00:1',
    '::ffff:0:10.0.0.1',
    // Teredo: server 65.54.227.120, client 127.0.0.1 obscured (XOR ffff:ffff).
    '2001:0:4136:e378:8000:63bf:80ff:fffe',
    'not-an-address',
  ])('should block %s', (address) => {
    expect(isBlockedAddress(address)).toBe(true);
  });

  it.each(['93.184.215.14', '8.8.8.8', '172.32.0.1', '2606:4700::6810:84e5', '::ffff:8.8.8.8'])(
    'should allow the public address %s',
    (address) => {
      expect(isBlockedAddress(address)).toBe(false);
    },
  );
});

describe('parseWebhookUrl and checkWebhookUrl', () => {
  const strict = { allowHttp: false, allowPrivate: false, allowLoopback: false };

  it('should refuse http unless allowed', () => {
    expect(() => parseWebhookUrl('http://example.com/hook', strict)).toThrow(/https/);
    expect(parseWebhookUrl('http://example.com/hook', { ...strict, allowHttp: true }).host).toBe(
      'example.com',
    );
  });

  it('should take http to this machine as a loopback receiver, and name the setting when refused', () => {
    const local = { ...strict, allowLoopback: true };
    expect(parseWebhookUrl('http://localhost:8080/', local).port).toBe('8080');
    expect(parseWebhookUrl('http://127.0.0.1:8080/', local).port).toBe('8080');
    expect(() => parseWebhookUrl('http://example.com/', local)).toThrow(/WEBHOOK_ALLOW_HTTP/);
    expect(() => parseWebhookUrl('http://localhost:8080/', strict)).toThrow(
      /WEBHOOK_ALLOW_LOOPBACK=true/,
    );
  });

  it('should reach loopback but no private or metadata address with the loopback allowance', async () => {
    const local = { ...strict, allowLoopback: true };
    await expect(checkWebhookUrl('http://localhost:8080/', local)).resolves.toBeInstanceOf(URL);
    await expect(checkWebhookUrl('https://[::1]/', local)).resolves.toBeInstanceOf(URL);
    await expect(checkWebhookUrl('https://10.0.0.1/', local)).rejects.toThrow(
      /WEBHOOK_ALLOW_PRIVATE/,
    );
    await expect(checkWebhookUrl('http://169.254.169.254/', local)).rejects.toThrow(/https/);
    await expect(checkWebhookUrl('https://localhost/', strict)).rejects.toThrow(
      /WEBHOOK_ALLOW_LOOPBACK=true/,
    );
  });

  it('should measure a URL as it is stored and sent, percent-encoded', () => {
    const long = `https://example.com/${'é'.repeat(700)}`;
    expect(long.length).toBeLessThan(2048);
    expect(() => parseWebhookUrl(long, strict)).toThrow(
      /at most 2048 characters once percent-encoded \(this one has 4220\)/,
    );
    expect(parseWebhookUrl(`https://example.com/${'é'.repeat(300)}`, strict).href).toHaveLength(
      1820,
    );
  });

  it('should refuse credentials, fragments and other schemes', () => {
    expect(() => parseWebhookUrl('https://u:p@example.com/', strict)).toThrow(/credentials/);
    expect(() => parseWebhookUrl('https://example.com/#x', strict)).toThrow(/fragment/);
    expect(() => parseWebhookUrl('ftp://example.com/', strict)).toThrow(/https/);
    expect(() => parseWebhookUrl('example.com', strict)).toThrow(/absolute/);
  });

  it('should refuse private literals and names that resolve to loopback without the allowance', async () => {
    await expect(checkWebhookUrl('https://127.0.0.1/', strict)).rejects.toThrow(/loopback/);
    await expect(checkWebhookUrl('https://[::ffff:10.0.0.1]/', strict)).rejects.toThrow(/private/);
    await expect(checkWebhookUrl('https://localhost/', strict)).rejects.toThrow(
      /resolves only to loopback addresses/,
    );
    for (const url of [
      'https://[64:ff9b:1::7f00:1]/',
      'https://[::ffff:0:7f00:1]/',
      'https://[2001:0:4136:e378:8000:63bf:80ff:fffe]/',
    ])
      await expect(checkWebhookUrl(url, strict), url).rejects.toThrow(
        /may not reach|loopback|private/,
      );
    await expect(
      checkWebhookUrl('https://localhost/', { ...strict, allowPrivate: true }),
    ).resolves.toBeInstanceOf(URL);
  });
});

import type { Repository } from 'typeorm';
import { describe, expect, it, vi } from 'vitest';
import { loadConfig } from '../config/app-config.js';
import { generateApiKey } from './api-key.codec.js';
import type { ApiKeyEntity } from './api-key.entity.js';
import { ApiKeysService } from './api-keys.service.js';

describe('ApiKeysService.identify', () => {
  it('should refuse a key of the other environment by its prefix, without a lookup', async () => {
    for (const [env, foreign] of [
      ['development', generateApiKey('production')],
      ['staging', generateApiKey('production')],
      ['production', generateApiKey('development')],
    ] as const) {
      const findOneBy = vi.fn().mockResolvedValue(null);
      const service = new ApiKeysService(
        { findOneBy } as unknown as Repository<ApiKeyEntity>,
        loadConfig({ APP_ENV: env }),
      );
      expect(service.identify(foreign)).toEqual({ kind: 'invalid' });
      const own = service.identify(generateApiKey(env));
      expect(own.kind).toBe('unverified');
      expect(findOneBy).not.toHaveBeenCalled();
    }
  });
});

import { Module } from '@nestjs/common';
import { ApiKeyGuard } from './api-key.guard.js';
import { ApiKeysModule } from './api-keys.module.js';

/**
 * The server's bearer guard over the keys; the lookup budget it takes from comes from the global
 * RateLimitModule.
 */
@Module({
  imports: [ApiKeysModule],
  providers: [ApiKeyGuard],
  exports: [ApiKeysModule, ApiKeyGuard],
})
export class AuthModule {}

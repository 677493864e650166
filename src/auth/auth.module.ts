import { Module } from '@nestjs/common';
import { ApiKeyGuard } from './api-key.guard.js';
import { ApiKeysModule } from './api-keys.module.js';

/** Its lookup budget comes from the global RateLimitModule. */
@Module({
  imports: [ApiKeysModule],
  providers: [ApiKeyGuard],
  exports: [ApiKeysModule, ApiKeyGuard],
})
export class AuthModule {}

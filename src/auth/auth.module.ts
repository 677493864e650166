import { Module } from '@nestjs/common';
import { ApiKeyGuard } from './api-key.guard.js';
import { ApiKeysModule } from './api-keys.module.js';

@Module({
  imports: [ApiKeysModule],
  providers: [ApiKeyGuard],
  exports: [ApiKeysModule, ApiKeyGuard],
})
export class AuthModule {}

import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKeyEntity } from './api-key.entity.js';
import { ApiKeyIdentifyGuard } from './api-key-identify.guard.js';
import { ApiKeyRequiredGuard } from './api-key-required.guard.js';
import { ApiKeysService } from './api-keys.service.js';
import { KeyScopeGuard } from './scope.guard.js';

@Module({
  imports: [TypeOrmModule.forFeature([ApiKeyEntity])],
  providers: [ApiKeysService, ApiKeyIdentifyGuard, ApiKeyRequiredGuard, KeyScopeGuard],
  exports: [ApiKeysService, ApiKeyIdentifyGuard, ApiKeyRequiredGuard, KeyScopeGuard],
})
export class AuthModule {}

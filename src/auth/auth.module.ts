import { Module } from '@nestjs/common';
import { TypeOrmModule } from '@nestjs/typeorm';
import { ApiKeyEntity } from './api-key.entity.js';
import { ApiKeyIdentifyGuard, ApiKeyRequiredGuard } from './api-key.guards.js';
import { ApiKeysService } from './api-keys.service.js';
import { KeyScopeGuard } from './scope.guard.js';

@Module({
  imports: [TypeOrmModule.forFeature([ApiKeyEntity])],
  providers: [ApiKeysService, ApiKeyIdentifyGuard, ApiKeyRequiredGuard, KeyScopeGuard],
  exports: [ApiKeysService, ApiKeyIdentifyGuard, ApiKeyRequiredGuard, KeyScopeGuard],
})
export class AuthModule {}

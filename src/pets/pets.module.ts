import { Module } from '@nestjs/common';
import { PetsDeprecationInterceptor } from './deprecation.interceptor.js';
import { PetsController } from './pets.controller.js';
import { PetsRepository } from './pets.repository.js';
import { PetsService } from './pets.service.js';

@Module({
  controllers: [PetsController],
  providers: [PetsRepository, PetsService, PetsDeprecationInterceptor],
})
export class PetsModule {}

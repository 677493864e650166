import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { GracefulShutdown } from './graceful-shutdown.js';
import { HealthController } from './health.controller.js';

@Module({
  imports: [TerminusModule.forRoot({ errorLogStyle: 'json' })],
  controllers: [HealthController],
  providers: [GracefulShutdown],
})
export class HealthModule {}

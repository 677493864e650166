import { Module } from '@nestjs/common';
import { NotFoundController, OutsideApiNotFoundController } from './not-found.controller.js';

@Module({ controllers: [NotFoundController] })
export class NotFoundModule {}

/** Imported after every other module, so its catch-all is the last route. */
@Module({ controllers: [OutsideApiNotFoundController] })
export class OutsideApiNotFoundModule {}

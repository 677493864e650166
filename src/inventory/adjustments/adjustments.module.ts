import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../../idempotency/idempotency.module.js';
import { TransactionalStockLinesWriter } from '../writes/stock-lines.writer.js';
import { AdjustmentsController } from './adjustments.controller.js';
import { AdjustmentsService, StockLines } from './adjustments.service.js';

@Module({
  imports: [IdempotencyModule],
  controllers: [AdjustmentsController],
  providers: [AdjustmentsService, { provide: StockLines, useClass: TransactionalStockLinesWriter }],
})
export class AdjustmentsModule {}

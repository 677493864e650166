import { Module } from '@nestjs/common';
import { IdempotencyModule } from '../../idempotency/idempotency.module.js';
import { InventoryModule } from '../inventory.module.js';
import { StockLinesService } from '../writes/stock-lines.service.js';
import { AdjustmentsController } from './adjustments.controller.js';
import { AdjustmentsService, StockLines } from './adjustments.service.js';
import { BatchCost } from './batch-cost.js';

@Module({
  imports: [InventoryModule, IdempotencyModule],
  controllers: [AdjustmentsController],
  providers: [
    AdjustmentsService,
    BatchCost,
    { provide: StockLines, useExisting: StockLinesService },
  ],
})
export class AdjustmentsModule {}

import { Body, Controller, HttpCode, Param, Post, Req, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiExtraModels,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiTags,
} from '@nestjs/swagger';
import type { Request, Response } from 'express';
import type { IdentifiedRequest } from '../../auth/principal.js';
import { ParsePetIdPipe } from '../../common/pipes/pet-id.pipe.js';
import {
  idempotentRequest as idempotentHttpRequest,
  sendIdempotent,
} from '../../idempotency/idempotent-http.js';
import {
  ApiIdempotencyKey,
  ApiReplayableErrors,
  IDEMPOTENCY_422,
  REPLAYED_HEADER,
} from '../../idempotency/idempotency.docs.js';
import { ApiErrorResponses, ApiStability } from '../../openapi/api-docs.decorators.js';
import { PET_ID_PARAM } from '../../openapi/params.js';
import type { RawJson } from '../../platform/http/index.js';
import { RateLimitCost } from '../../rate-limit/rate-limit-cost.decorator.js';
import { InventoryItem } from '../dto/inventory-item.dto.js';
import { CallerOf } from '../writes/caller.decorator.js';
import type { Caller } from '../writes/stock-write.js';
import { AdjustmentsService } from './adjustments.service.js';
import { BatchCost } from './batch-cost.js';
import { InventoryAdjustment } from './dto/inventory-adjustment.dto.js';
import {
  InventoryBatch,
  InventoryBatchResult,
  MAX_BATCH_LINES,
} from './dto/inventory-batch.dto.js';
import {
  ADJUST_400,
  ADJUST_404,
  ADJUST_409,
  BATCH_400,
  BATCH_404,
  BATCH_409,
} from './adjustments.docs.js';

const ITEM_HEADERS = {
  ETag: {
    description: "A strong validator of the item's new state, for `If-Match` on `PATCH`",
    required: true,
    schema: { type: 'string' },
  },
  ...REPLAYED_HEADER,
};

const idempotentRequest = (req: Request, caller: Caller) =>
  idempotentHttpRequest(req, caller.keyId);

@ApiTags('inventory')
@ApiIdempotencyKey(
  'A unique value per change (a UUID)',
  'sent again unchanged on every retry of that change: a change is applied once per key and API key, and a retry gets the first answer again, with `Idempotent-Replayed: true`. Kept IDEMPOTENCY_RETENTION_HOURS (default 24 h).',
)
@ApiExtraModels(InventoryBatchResult)
@Controller('inventory')
export class AdjustmentsController {
  constructor(private readonly adjustments: AdjustmentsService) {}

  @Post(':petId/adjustments')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Adjust stock level',
    description:
      "Adds `delta` to one pet's stock (negative takes out), atomically: concurrent adjustments all count. The status follows as on `PATCH`. Refused with 409 when the stock would fall below 0. Safe to retry with the same `Idempotency-Key`.",
  })
  @ApiStability('experimental')
  @ApiParam(PET_ID_PARAM)
  @ApiConsumes('application/json')
  @ApiBody({ type: InventoryAdjustment, required: true })
  @ApiOkResponse({ type: InventoryItem, description: 'The adjusted entry', headers: ITEM_HEADERS })
  @ApiReplayableErrors([400, ADJUST_400], [404, ADJUST_404], [409, ADJUST_409])
  @ApiErrorResponses(413, 415, [422, IDEMPOTENCY_422])
  async adjustInventory(
    @Param('petId', ParsePetIdPipe) petId: bigint,
    @Body() adjustment: InventoryAdjustment,
    @CallerOf() caller: Caller,
    @Req() req: IdentifiedRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<RawJson> {
    const request = idempotentRequest(req, caller);
    return sendIdempotent(res, await this.adjustments.adjust(petId, adjustment, request, caller));
  }

  @Post('batch')
  @HttpCode(200)
  @RateLimitCost(BatchCost)
  @ApiOperation({
    summary: 'Change several stock levels at once',
    description: `Applies 1 to ${MAX_BATCH_LINES} lines in order, each a set (\`quantity\`) or an adjustment (\`delta\`), optionally only if the pet holds \`expectedQuantity\`: all of them in one transaction, or none. Counts as one request per line against the rate limit (a replay counts as one). Safe to retry with the same \`Idempotency-Key\`.`,
  })
  @ApiStability('experimental')
  @ApiConsumes('application/json')
  @ApiBody({ type: InventoryBatch, required: true })
  @ApiOkResponse({
    type: InventoryBatchResult,
    description: 'Every line applied: the entry of each line after it, in line order',
    headers: REPLAYED_HEADER,
  })
  @ApiReplayableErrors([400, BATCH_400], [404, BATCH_404], [409, BATCH_409])
  @ApiErrorResponses(413, 415, [422, IDEMPOTENCY_422])
  async batchUpdateInventory(
    @Body() batch: InventoryBatch,
    @CallerOf() caller: Caller,
    @Req() req: IdentifiedRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<RawJson> {
    const request = idempotentRequest(req, caller);
    return sendIdempotent(res, await this.adjustments.batch(batch, request, caller));
  }
}

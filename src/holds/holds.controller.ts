import { Body, Controller, Get, HttpCode, Param, Post, Query, Req, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiCreatedResponse,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import type { IdentifiedRequest } from '../auth/principal.js';
import { MAX_PAGE } from '../common/pipes/page-query.js';
import { ParsePetIdPipe } from '../common/pipes/pet-id.pipe.js';
import { idempotentRequest, sendIdempotent } from '../idempotency/idempotent-http.js';
import {
  ApiIdempotencyKey,
  ApiReplayableErrors,
  IDEMPOTENCY_422,
} from '../idempotency/idempotency.docs.js';
import { CallerOf } from '../inventory/writes/caller.decorator.js';
import type { Caller } from '../inventory/writes/stock-write.js';
import {
  ApiErrorResponses,
  ApiRevalidation,
  ApiStability,
  ERROR_RESPONSES,
  WEAK_ETAG_HEADER,
} from '../openapi/api-docs.decorators.js';
import { PET_ID_PARAM } from '../openapi/params.js';
import type { RawJson } from '../platform/http/index.js';
import { HoldRequest } from './dto/hold-request.dto.js';
import { Hold, HoldConfirmation } from './dto/hold.dto.js';
import { HoldsQuery } from './dto/holds-query.dto.js';
import {
  CONFIRM_409,
  CREATED_HEADERS,
  HOLD_400,
  HOLD_404,
  HOLD_CREATE_409,
  HOLD_ID_PARAM,
  NEXT_PAGE_HEADER,
  RELEASE_409,
} from './holds.docs.js';
import { HoldsService } from './holds.service.js';

@ApiTags('holds')
@Controller()
export class HoldsController {
  constructor(private readonly holds: HoldsService) {}

  @Post('inventory/:petId/holds')
  @ApiOperation({
    summary: 'Hold units of a pet',
    description:
      'Keeps `quantity` units of one pet for a buyer until `expiresAt` (a cart at checkout): other holds and removals cannot take them, and `available` falls by them at once. Confirm it to sell them, release it to give them back. Safe to retry with the same `Idempotency-Key`.',
  })
  @ApiStability('experimental')
  @ApiParam(PET_ID_PARAM)
  @ApiIdempotencyKey(
    'A unique value per hold (a UUID)',
    'sent again unchanged on every retry: one hold per key and API key, and a retry gets the first answer again, with `Idempotent-Replayed: true`.',
  )
  @ApiConsumes('application/json')
  @ApiBody({ type: HoldRequest, required: true })
  @ApiCreatedResponse({ type: Hold, description: 'The hold, active', headers: CREATED_HEADERS })
  @ApiReplayableErrors([400, HOLD_400], [404, ERROR_RESPONSES[404]], [409, HOLD_CREATE_409])
  @ApiErrorResponses(413, 415, [422, IDEMPOTENCY_422])
  async createHold(
    @Param('petId', ParsePetIdPipe) petId: bigint,
    @Body() body: HoldRequest,
    @CallerOf() caller: Caller,
    @Req() req: IdentifiedRequest,
    @Res({ passthrough: true }) res: Response,
  ): Promise<RawJson> {
    const outcome = await this.holds.create(petId, body, idempotentRequest(req, caller.keyId));
    if (outcome.answer.status === 201) {
      const { holdId } = JSON.parse(outcome.answer.body) as { holdId: string };
      res.setHeader('Location', `/v1/holds/${holdId}`);
    }
    return sendIdempotent(res, outcome);
  }

  @Get('inventory/:petId/holds')
  @ApiOperation({
    summary: "List a pet's active holds",
    description:
      'The holds keeping units of this pet now, oldest first, at most `limit` (1,000 unless asked for fewer); a full page carries `Link rel="next"` to the rest.',
  })
  @ApiStability('experimental')
  @ApiParam(PET_ID_PARAM)
  @ApiQuery({
    name: 'after',
    required: false,
    type: 'string',
    description:
      'An opaque cursor from `Link`: only the holds after it. Without it: from the oldest.',
  })
  @ApiQuery({
    name: 'limit',
    required: false,
    schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE, default: MAX_PAGE },
    description: 'At most this many holds',
  })
  @ApiOkResponse({
    type: [Hold],
    description: 'The active holds, oldest first',
    headers: { ...WEAK_ETAG_HEADER, ...NEXT_PAGE_HEADER },
  })
  @ApiRevalidation()
  @ApiErrorResponses(400, 404)
  async listPetHolds(
    @Param('petId', ParsePetIdPipe) petId: bigint,
    @Query() query: HoldsQuery,
    @Res({ passthrough: true }) res: Response,
  ): Promise<Hold[]> {
    const { holds, next } = await this.holds.list(petId, query);
    if (next)
      res.setHeader(
        'Link',
        `</v1/inventory/${petId}/holds?after=${next.after}&limit=${next.limit}>; rel="next"`,
      );
    return holds;
  }

  @Get('holds/:holdId')
  @ApiOperation({
    summary: 'Get a hold',
    description: 'One hold, in any status: an active one reads `expired` from its `expiresAt` on.',
  })
  @ApiStability('experimental')
  @ApiParam(HOLD_ID_PARAM)
  @ApiOkResponse({ type: Hold, description: 'The hold', headers: WEAK_ETAG_HEADER })
  @ApiRevalidation()
  @ApiErrorResponses([404, HOLD_404])
  getHold(@Param('holdId') holdId: string): Promise<Hold> {
    return this.holds.get(holdId);
  }

  @Post('holds/:holdId/confirm')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Confirm a hold: sell its units',
    description:
      "The held units leave stock in one change (`reason` `sold`, `reference` the hold's; quantity 0 marks the pet `sold`), recorded in the history and sent to webhooks; the hold becomes `confirmed`. Confirming a confirmed hold answers the same again and changes nothing.",
  })
  @ApiStability('experimental')
  @ApiParam(HOLD_ID_PARAM)
  @ApiOkResponse({
    type: HoldConfirmation,
    description: 'The confirmed hold and the item after it',
  })
  @ApiErrorResponses([404, HOLD_404], [409, CONFIRM_409])
  confirmHold(
    @Param('holdId') holdId: string,
    @CallerOf() caller: Caller,
  ): Promise<HoldConfirmation> {
    return this.holds.confirm(holdId, caller);
  }

  @Post('holds/:holdId/release')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Release a hold',
    description:
      'Gives the held units back at once (a cart abandoned). Releasing a released or expired hold answers it unchanged.',
  })
  @ApiStability('experimental')
  @ApiParam(HOLD_ID_PARAM)
  @ApiOkResponse({ type: Hold, description: 'The hold, released (or as it ended)' })
  @ApiErrorResponses([404, HOLD_404], [409, RELEASE_409])
  releaseHold(@Param('holdId') holdId: string): Promise<Hold> {
    return this.holds.release(holdId);
  }
}

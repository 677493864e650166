import { Controller, Get, Param, Query, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiParam, ApiQuery, ApiTags } from '@nestjs/swagger';
import type { Response } from 'express';
import { ParsePetIdPipe } from '../../common/pipes/pet-id.pipe.js';
import { ApiErrorResponses, ApiStability } from '../../openapi/api-docs.decorators.js';
import { PET_ID_PARAM } from '../../openapi/params.js';
import { MAX_PAGE } from '../../common/pipes/page-query.js';
import { DEFAULT_PAGE } from './change-cursor.js';
import { ChangesQuery } from './dto/changes-query.dto.js';
import { InventoryChange, inventoryChangesJson } from './dto/inventory-change.dto.js';
import { RawJson } from '../../platform/http/index.js';
import { type ChangesPage, InventoryHistoryService } from './inventory-history.service.js';

const FEED_HEADERS = {
  Link: {
    description:
      'The next page: `</v1/inventory/changes?after=<cursor>&limit=<n>>; rel="next"`, on every page, also an empty one',
    required: true,
    schema: { type: 'string' },
  },
  'Cache-Control': {
    description: '`no-store`: the newest page grows as changes are made; follow `Link` instead',
    required: true,
    schema: { type: 'string', enum: ['no-store'] },
  },
};

const AFTER = {
  name: 'after',
  required: false,
  type: 'string',
  description:
    'An opaque cursor from `Link` or `X-Changes-Cursor`: only changes after it. Without it: from the oldest kept change.',
} as const;
const LIMIT = {
  name: 'limit',
  required: false,
  schema: { type: 'integer', minimum: 1, maximum: MAX_PAGE, default: DEFAULT_PAGE },
  description: 'At most this many changes',
} as const;

function answer(res: Response, path: string, page: ChangesPage): RawJson {
  res.setHeader('Link', `<${path}?after=${page.next}&limit=${page.limit}>; rel="next"`);
  res.setHeader('Cache-Control', 'no-store');
  return new RawJson(inventoryChangesJson(page.changes));
}

/** Registered before InventoryController, so that `changes` is not taken for a petId. */
@ApiTags('inventory')
@Controller('inventory')
export class InventoryChangesController {
  constructor(private readonly history: InventoryHistoryService) {}

  @Get('changes')
  @ApiOperation({
    summary: 'Follow stock changes',
    description:
      'Every change of any pet\'s quantity or status, oldest first, strictly after the cursor. Start from `X-Changes-Cursor` of `GET /v1/inventory` and follow `Link rel="next"`: no change is missed or repeated, whichever instance made it.',
  })
  @ApiStability('experimental')
  @ApiQuery(AFTER)
  @ApiQuery(LIMIT)
  @ApiOkResponse({
    type: [InventoryChange],
    description: 'The next changes',
    headers: FEED_HEADERS,
  })
  @ApiErrorResponses(400, 410)
  async listInventoryChanges(
    @Query() query: ChangesQuery,
    @Res({ passthrough: true }) res: Response,
  ): Promise<RawJson> {
    return answer(res, '/v1/inventory/changes', await this.history.changes(query));
  }

  @Get(':petId/changes')
  @ApiOperation({
    summary: 'Stock history of one pet',
    description:
      "The changes of one pet's quantity or status, oldest first, paged like `GET /v1/inventory/changes`.",
  })
  @ApiStability('experimental')
  @ApiParam(PET_ID_PARAM)
  @ApiQuery(AFTER)
  @ApiQuery(LIMIT)
  @ApiOkResponse({
    type: [InventoryChange],
    description: "The pet's next changes",
    headers: FEED_HEADERS,
  })
  @ApiErrorResponses(400, 404, 410)
  async listPetInventoryChanges(
    @Param('petId', ParsePetIdPipe) petId: bigint,
    @Query() query: ChangesQuery,
    @Res({ passthrough: true }) res: Response,
  ): Promise<RawJson> {
    return answer(res, `/v1/inventory/${petId}/changes`, await this.history.changes(query, petId));
  }
}

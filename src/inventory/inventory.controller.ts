import { Body, Controller, Get, Headers, Param, Patch, Res } from '@nestjs/common';
import {
  ApiBody,
  ApiConsumes,
  ApiHeader,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiResponse,
  ApiTags,
} from '@nestjs/swagger';
import type { Response } from 'express';
import { RawJson } from '../platform/http/index.js';
import { ParsePetIdPipe } from '../common/pipes/pet-id.pipe.js';
import {
  ApiErrorResponses,
  ApiStability,
  type ErrorResponseDoc,
} from '../openapi/api-docs.decorators.js';
import { PET_ID_PARAM } from '../openapi/params.js';
import { InventoryItem } from './dto/inventory-item.dto.js';
import { InventoryUpdate } from './dto/inventory-update.dto.js';
import { InventoryService } from './inventory.service.js';
import { CallerOf } from './writes/caller.decorator.js';
import { parseIfMatch } from './writes/preconditions.js';
import type { Caller } from './writes/stock-write.js';

const LISTING_HEADERS = {
  ETag: {
    description:
      'A strong validator of the listing: it changes whenever any stock level or status does',
    required: true,
    schema: { type: 'string' },
  },
  'Cache-Control': {
    description: '`private, no-cache`: a client may keep the listing but revalidates it before use',
    required: true,
    schema: { type: 'string', enum: ['private, no-cache'] },
  },
  'X-Changes-Cursor': {
    description:
      'Where this listing stands in the change feed: `GET /v1/inventory/changes?after=<cursor>` yields exactly the changes it does not show yet',
    required: true,
    schema: { type: 'string' },
  },
};

const UPDATE_400: ErrorResponseDoc = {
  description:
    'The request holds invalid values: `petId` is not an integer from 1 to 9223372036854775807, or the body is not a JSON object with an integer `quantity` from 0 to 2147483647 and at most an optional `reason` (received, returned, correction, damaged, sold, other) and `reference` (1 to 255 characters) (missing, malformed, an array, or with unknown fields); or `If-Match` is malformed; or `Authorization` is sent more than once',
  examples: {
    quantity: { message: 'quantity must be an integer from 0 to 2147483647' },
    unknown_field: { message: 'property name should not exist' },
    malformed_body: { message: 'Request body is not valid JSON' },
    pet_id: { message: 'petId must be an integer from 1 to 9223372036854775807' },
  },
};

const ITEM_ETAG = {
  ETag: {
    description: "A strong validator of this item's state, for `If-Match` on `PATCH`",
    required: true,
    schema: { type: 'string' },
  },
};

@ApiTags('inventory')
@Controller('inventory')
export class InventoryController {
  constructor(private readonly inventory: InventoryService) {}

  @Get()
  @ApiOperation({
    summary: 'List inventory',
    description: 'Returns current stock levels for all pets in the store, by ascending petId.',
  })
  @ApiStability('beta')
  @ApiHeader({
    name: 'If-None-Match',
    required: false,
    description:
      'The `ETag` of a listing the client holds: while it is current, the answer is 304 without a body.',
  })
  @ApiOkResponse({
    type: [InventoryItem],
    description: 'The stock level of every pet',
    headers: LISTING_HEADERS,
  })
  @ApiResponse({
    status: 304,
    description: 'Not Modified: the listing still matches `If-None-Match`; no body',
    headers: LISTING_HEADERS,
  })
  async listInventory(@Res({ passthrough: true }) res: Response): Promise<RawJson> {
    const listing = await this.inventory.listInventory();
    // Our own strong ETag, so Express neither hashes the body per request nor sends a weak
    // one; res.send then answers a matching If-None-Match with 304 (RFC 9110 §13.1.2).
    res.setHeader('ETag', listing.etag);
    res.setHeader('Cache-Control', 'private, no-cache');
    res.setHeader('X-Changes-Cursor', listing.cursor);
    return new RawJson(listing.body);
  }

  @Get(':petId')
  @ApiOperation({
    summary: 'Get one stock level',
    description: 'Returns the stock level of one pet, with a strong `ETag` of its state.',
  })
  @ApiStability('experimental')
  @ApiParam(PET_ID_PARAM)
  @ApiOkResponse({ type: InventoryItem, description: 'The entry', headers: ITEM_ETAG })
  @ApiErrorResponses(400, 404)
  async getInventoryItem(
    @Param('petId', ParsePetIdPipe) petId: bigint,
    @Res({ passthrough: true }) res: Response,
  ): Promise<InventoryItem> {
    const { item, etag } = await this.inventory.getItem(petId);
    res.setHeader('ETag', etag);
    return item;
  }

  @Patch(':petId')
  @ApiOperation({
    summary: 'Update stock level',
    description:
      'Sets the stock quantity of one pet. Quantity 0 marks the pet `sold`; a positive quantity makes a `sold` pet `available`; `pending` stays while stock remains. Every change is recorded in the stock history; a write that changes nothing records nothing.',
  })
  @ApiStability('experimental')
  @ApiParam(PET_ID_PARAM)
  @ApiHeader({
    name: 'If-Match',
    required: false,
    description:
      'One or more strong `ETag`s of the item (from `GET /v1/inventory/{petId}` or an earlier `PATCH`), or `*`: the update applies only while the item still has one of them, else 412.',
  })
  @ApiConsumes('application/json', 'application/merge-patch+json')
  @ApiBody({ type: InventoryUpdate, required: true })
  @ApiOkResponse({ type: InventoryItem, description: 'The updated entry', headers: ITEM_ETAG })
  @ApiErrorResponses([400, UPDATE_400], 404, 412, 413, 415)
  async updateInventory(
    @Param('petId', ParsePetIdPipe) petId: bigint,
    @Body() update: InventoryUpdate,
    @Headers('if-match') ifMatch: string | undefined,
    @CallerOf() caller: Caller,
    @Res({ passthrough: true }) res: Response,
  ): Promise<InventoryItem> {
    const { item, etag } = await this.inventory.updateInventory(
      petId,
      update,
      parseIfMatch(ifMatch),
      caller,
    );
    res.setHeader('ETag', etag);
    return item;
  }
}

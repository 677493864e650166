import { Body, Controller, Get, Param, Patch, Res } from '@nestjs/common';
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
import { ParsePetIdPipe } from '../common/pipes/pet-id.pipe.js';
import type { Response } from 'express';
import { RawJson } from '../common/http/json.js';
import { arrivalOf } from '../common/http/request-observers.js';
import {
  ApiErrorResponses,
  ApiStability,
  type ErrorResponseDoc,
} from '../openapi/api-docs.decorators.js';
import { PET_ID_PARAM } from '../openapi/params.js';
import { InventoryItem } from './dto/inventory-item.dto.js';
import { InventoryUpdate } from './dto/inventory-update.dto.js';
import { InventoryService } from './inventory.service.js';

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
};

const UPDATE_400: ErrorResponseDoc = {
  description:
    'The request holds invalid values: `petId` is not an integer from 1 to 9223372036854775807, or the body is not a JSON object with exactly an integer `quantity` from 0 to 2147483647 (missing, malformed, an array, or with unknown fields); or `Authorization` is sent more than once',
  examples: {
    quantity: { message: 'quantity must be an integer from 0 to 2147483647' },
    unknown_field: { message: 'property name should not exist' },
    malformed_body: { message: 'Request body is not valid JSON' },
    pet_id: { message: 'petId must be an integer from 1 to 9223372036854775807' },
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
    const listing = await this.inventory.listInventory(arrivalOf(res.req));
    // Our own strong ETag, so Express neither hashes the body per request nor sends a weak
    // one; res.send then answers a matching If-None-Match with 304 (RFC 9110 §13.1.2).
    // no-cache: a client may keep the listing but must revalidate it before each use.
    res.setHeader('ETag', listing.etag);
    res.setHeader('Cache-Control', 'private, no-cache');
    return new RawJson(listing.body);
  }

  @Patch(':petId')
  @ApiOperation({
    summary: 'Update stock level',
    description:
      'Sets the stock quantity of one pet. Quantity 0 marks the pet `sold`; a positive quantity makes a `sold` pet `available`; `pending` stays while stock remains.',
  })
  @ApiStability('experimental')
  @ApiParam(PET_ID_PARAM)
  @ApiConsumes('application/json', 'application/merge-patch+json')
  @ApiBody({ type: InventoryUpdate, required: true })
  @ApiOkResponse({ type: InventoryItem, description: 'The updated entry' })
  @ApiErrorResponses([400, UPDATE_400], 404, 413, 415)
  updateInventory(
    @Param('petId', ParsePetIdPipe) petId: bigint,
    @Body() update: InventoryUpdate,
  ): Promise<InventoryItem> {
    return this.inventory.updateInventory(petId, update.quantity);
  }
}

import { Controller, Get, Header, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiStability } from '../openapi/api-docs.decorators.js';
import { RateLimitStatus } from './dto/rate-limit-status.dto.js';
import type { MeteredRequest } from './rate-limit.guard.js';
import { RateLimitStatusService } from './rate-limit-status.service.js';
import { Uncounted } from './uncounted.decorator.js';

@ApiTags('rate limit')
@Controller('rate_limit')
export class RateLimitController {
  constructor(private readonly status: RateLimitStatusService) {}

  @Get()
  @Uncounted()
  @ApiOperation({
    summary: 'Get rate-limit status',
    description:
      "The caller's plan, the limit, remaining requests and reset of both windows, and the end of any ban. Not counted: calling it never changes `remaining`, and it answers also while the key is limited or banned.",
  })
  @ApiStability('beta')
  @Header('Cache-Control', 'no-store')
  @ApiOkResponse({
    type: RateLimitStatus,
    description: "The caller's rate-limit standing",
    headers: {
      'Cache-Control': {
        description: '`no-store`: the standing changes with every counted request and with time',
        required: true,
        schema: { type: 'string', enum: ['no-store'] },
      },
    },
  })
  getRateLimit(@Req() req: MeteredRequest): Promise<RateLimitStatus> {
    // The require-key guard has run: only a valid key gets here.
    const identity = req.identity;
    if (identity?.kind !== 'key') throw new Error('getRateLimit reached without a key');
    return this.status.getRateLimit(identity.principal, req.rateLimit);
  }
}

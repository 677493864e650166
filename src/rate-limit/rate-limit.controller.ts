import type { ServerResponse } from 'node:http';
import { Controller, Get, Res } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiStability } from '../openapi/api-docs.decorators.js';
import { RateLimitStatus } from './dto/rate-limit-status.dto.js';
import { ApiPrincipal } from '../auth/api-key.guard.js';
import type { Principal } from '../auth/principal.js';
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
  getRateLimit(
    @ApiPrincipal() principal: Principal,
    @Res({ passthrough: true }) res: ServerResponse,
  ): Promise<RateLimitStatus> {
    return this.status.getRateLimit(principal, res);
  }
}

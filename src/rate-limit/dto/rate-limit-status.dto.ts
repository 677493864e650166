import { ApiProperty } from '@nestjs/swagger';
import { PLANS, type Plan } from '../../auth/plans.js';

export class RateLimitWindow {
  @ApiProperty({ enum: ['minute', 'day'], example: 'minute', description: 'Which window' })
  name!: string;

  @ApiProperty({ type: 'integer', minimum: 0, example: 60, description: 'Requests allowed in it' })
  limit!: number;

  @ApiProperty({
    type: 'integer',
    minimum: 0,
    example: 59,
    description: 'Requests left in it now (0 while banned)',
  })
  remaining!: number;

  @ApiProperty({
    type: 'integer',
    format: 'int64',
    minimum: 0,
    example: 1795000020,
    description: 'When it resets, in Unix seconds (while banned: not before the ban ends)',
  })
  reset!: number;
}

export class RateLimitStatus {
  @ApiProperty({ enum: PLANS, enumName: 'Plan', example: 'free', description: "The key's plan" })
  plan!: Plan;

  @ApiProperty({
    type: [RateLimitWindow],
    description: 'The minute and the UTC day, in that order',
  })
  windows!: RateLimitWindow[];

  @ApiProperty({
    type: 'integer',
    format: 'int64',
    nullable: true,
    example: null,
    description: 'When the current ban ends, in Unix seconds; null when not banned',
  })
  bannedUntil!: number | null;
}

import { ApiProperty, ApiPropertyOptional, ApiSchema } from '@nestjs/swagger';
import { ERROR_STATUS, type ErrorBody, type ErrorCode } from '../common/errors/error-code.js';

/** The spec's Error body, as the document names it (`Error` itself would shadow the JS class). */
@ApiSchema({ name: 'Error', description: 'The body of every error response.' })
export class ErrorSchema implements ErrorBody {
  @ApiProperty({
    enum: Object.keys(ERROR_STATUS),
    enumName: 'ErrorCode',
    example: 'not_found',
    description: 'Machine-readable error code; each code always travels with the same HTTP status',
  })
  code!: ErrorCode;

  @ApiProperty({
    type: 'string',
    example: 'No pet with id 42',
    description: 'Human-readable description of the error',
  })
  message!: string;

  @ApiProperty({
    type: 'integer',
    format: 'int32',
    minimum: 100,
    maximum: 599,
    example: 404,
    description: 'The HTTP status code of the response',
  })
  status!: number;

  @ApiPropertyOptional({
    type: 'object',
    additionalProperties: true,
    description:
      'More about the failure where its code defines it: for `precondition_failed`, `current` holds the current InventoryItem',
  })
  details?: Record<string, unknown>;
}

import type { ApiParamOptions } from '@nestjs/swagger';

export const PET_ID_PARAM: ApiParamOptions = {
  name: 'petId',
  description: 'Identifier of the pet: decimal digits, 1 to 9223372036854775807',
  schema: { type: 'integer', format: 'int64', minimum: 1, example: 1 },
};

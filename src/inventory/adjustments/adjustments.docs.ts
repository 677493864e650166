import { ERROR_RESPONSES, type ErrorResponseDoc } from '../../openapi/api-docs.decorators.js';

export const ADJUST_404 = ERROR_RESPONSES[404];

const KEY_400 = {
  idempotency_key: {
    message:
      'Idempotency-Key is required: a unique value per change, such as a UUID, sent again on each retry',
  },
};

export const ADJUST_400: ErrorResponseDoc = {
  description:
    'The request holds invalid values: `petId` is not an integer from 1 to 9223372036854775807; the body is not a JSON object with a non-zero integer `delta` from -2147483647 to 2147483647 and at most an optional `reason` and `reference` (1 to 255 characters); `Idempotency-Key` is missing, empty or longer than 255 characters; or the adjustment would take the quantity above 2147483647',
  examples: {
    delta: { message: 'delta must be a non-zero integer from -2147483647 to 2147483647' },
    ...KEY_400,
    above_maximum: {
      message: 'Pet 42 holds 2147483000: an adjustment of 1000 would exceed 2147483647',
    },
  },
};

export const ADJUST_409: ErrorResponseDoc = {
  description:
    'The adjustment would leave less than 0 in stock (`insufficient_stock`, with the current item in `details.current`); nothing changed',
  examples: {
    insufficient_stock: {
      code: 'insufficient_stock',
      message: 'Pet 42 holds 2: an adjustment of -3 would leave less than 0',
    },
  },
};

export const BATCH_400: ErrorResponseDoc = {
  description:
    'The request holds invalid values: the body is not `{"changes": [...]}` with 1 to 100 lines, each with a `petId`, exactly one of `quantity` (0 to 2147483647) and `delta` (non-zero, -2147483647 to 2147483647), and at most `expectedQuantity`, `reason` and `reference`; `Idempotency-Key` is missing, empty or longer than 255 characters; a line would take a quantity above 2147483647 (then `details.lines` names it); or the batch has more lines than the minute or day quota of the API key can ever hold. Nothing changed.',
  examples: {
    lines: { message: 'changes must be an array of 1 to 100 lines' },
    one_of: { message: 'line 1: exactly one of quantity and delta is required' },
    ...KEY_400,
  },
};

export const BATCH_404: ErrorResponseDoc = {
  description:
    'A line names a pet that does not exist; nothing changed, and `details.lines` lists every refused line as `{index, code, current?}`',
  examples: {
    not_found: {
      message: 'Nothing was changed: line 2 was refused (No pet with id 77)',
    },
  },
};

export const BATCH_409: ErrorResponseDoc = {
  description:
    "A line's pet does not hold its `expectedQuantity` (`quantity_mismatch`) or a line would leave less than 0 (`insufficient_stock`); nothing changed, and `details.lines` lists every refused line as `{index, code, current}`",
  examples: {
    quantity_mismatch: {
      code: 'quantity_mismatch',
      message:
        'Nothing was changed: line 1 was refused (Pet 42 holds 11, not the expected quantity)',
    },
    insufficient_stock: {
      code: 'insufficient_stock',
      message:
        'Nothing was changed: line 2 was refused (Pet 7 holds 0: the line would leave less than 0)',
    },
  },
};

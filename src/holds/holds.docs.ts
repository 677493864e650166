import type { ErrorResponseDoc } from '../openapi/api-docs.decorators.js';
import { REPLAYED_HEADER } from '../idempotency/idempotency.docs.js';

export const HOLD_ID_PARAM = {
  name: 'holdId',
  description: 'Identifier of the hold, as `createHold` answered it',
  schema: { type: 'string', example: '3f0c2a9e-6b1d-4c8e-9a57-2d4b8f1e7c30' },
};

export const CREATED_HEADERS = {
  Location: {
    description: 'The new hold: `/v1/holds/{holdId}`',
    required: true,
    schema: { type: 'string' },
  },
  ...REPLAYED_HEADER,
};

export const HOLD_400: ErrorResponseDoc = {
  description:
    'The request holds invalid values: `petId` is not an integer from 1 to 9223372036854775807; the body is not a JSON object with an integer `quantity` from 1 to 2147483647 and at most an optional `expiresIn` (60 to 86400 seconds) and `reference` (1 to 255 characters); or `Idempotency-Key` is missing, empty or longer than 255 characters. Nothing changed.',
  examples: {
    quantity: { message: 'quantity must be an integer from 1 to 2147483647' },
    expires_in: { message: 'expiresIn must be an integer from 60 to 86400 (seconds)' },
    idempotency_key: {
      message:
        'Idempotency-Key is required: a unique value per change, such as a UUID, sent again on each retry',
    },
  },
};

export const HOLD_CREATE_409: ErrorResponseDoc = {
  description:
    'Fewer than `quantity` units are available (`insufficient_stock`, with the current item in `details.current`); nothing changed',
  examples: {
    insufficient_stock: {
      code: 'insufficient_stock',
      message: 'Pet 42 has 1 available (quantity 3): a hold of 2 cannot be kept',
    },
  },
};

export const HOLD_404: ErrorResponseDoc = {
  description:
    'No hold has this `holdId` (unknown, malformed, or removed after HOLDS_RETENTION_DAYS)',
  examples: { not_found: { message: 'No hold with id 3f0c2a9e-6b1d-4c8e-9a57-2d4b8f1e7c30' } },
};

export const CONFIRM_409: ErrorResponseDoc = {
  description:
    'The hold was released or has expired (`hold_not_active`, the hold in `details.current`), or stock holds fewer units than the hold keeps, since a `PATCH` counted less (`insufficient_stock`, the item in `details.current`; the hold stays active). Nothing changed.',
  examples: {
    hold_not_active: {
      code: 'hold_not_active',
      message: 'Hold 3f0c2a9e-6b1d-4c8e-9a57-2d4b8f1e7c30 is expired: it cannot be confirmed',
    },
    insufficient_stock: {
      code: 'insufficient_stock',
      message: "Pet 42 has 0 available (quantity 1): the hold's 2 cannot leave stock",
    },
  },
};

export const RELEASE_409: ErrorResponseDoc = {
  description:
    'The hold was confirmed: its units were sold (`hold_not_active`, the hold in `details.current`). Nothing changed.',
  examples: {
    hold_not_active: {
      code: 'hold_not_active',
      message: 'Hold 3f0c2a9e-6b1d-4c8e-9a57-2d4b8f1e7c30 is confirmed: it cannot be released',
    },
  },
};

export const NEXT_PAGE_HEADER = {
  Link: {
    description:
      'The next page, when this one is full: `</v1/inventory/{petId}/holds?after=<cursor>&limit=<n>>; rel="next"`',
    required: false,
    schema: { type: 'string' },
  },
};

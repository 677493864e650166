export { createClient } from './client.js';
export type { ClientOptions, InventoryClient, UpdateOptions } from './client.js';
export { ApiError, HoldNotActiveError, NetworkError, TimeoutError } from './errors.js';
export type { ApiErrorCode, ApiErrorInit } from './errors.js';
export { ChangeFeed } from './feed.js';
export type { ChangePage, ChangesOptions } from './feed.js';
export type { CallOptions, TransportOptions } from './transport.js';
export type {
  ChangeContext,
  ChangeReason,
  Hold,
  HoldConfirmation,
  HoldOptions,
  HoldStatus,
  InventoryChange,
  InventoryItem,
  InventoryListing,
  InventoryUpdate,
  Order,
  Pet,
  PetStatus,
  RateLimitStatus,
  RateLimitWindow,
  StockChange,
  VersionedInventoryItem,
  WithBigIntIds,
} from './types.js';
export type { components, operations, paths } from './generated/openapi.js';

import type { components } from './generated/openapi.js';

type Schemas = components['schemas'];

/** `T` with its int64 identifier fields `K` as exact `bigint`s. */
export type WithBigIntIds<T, K extends keyof T> = Omit<T, K> & { [P in K]: bigint };

export type PetStatus = Schemas['PetStatus'];
export type InventoryItem = WithBigIntIds<Schemas['InventoryItem'], 'petId'>;
export type Order = WithBigIntIds<Schemas['Order'], 'id' | 'petId'>;
export type Pet = WithBigIntIds<Schemas['Pet'], 'id'>;
export type RateLimitStatus = Schemas['RateLimitStatus'];
export type Hold = WithBigIntIds<Schemas['Hold'], 'petId'>;
export type HoldStatus = Schemas['HoldStatus'];

/** `holds.confirm`'s answer: the confirmed hold, and the item after its units left stock. */
export interface HoldConfirmation {
  hold: Hold;
  item: InventoryItem;
}

/** How long a hold lasts and what it is for (`holds.create`). */
export interface HoldOptions {
  /** Seconds until it ends by itself, 60..86400 (default 900). */
  expiresIn?: number;
  /** The shop's name for it (a cart, an order), 1..255 characters; its confirm's change carries it. */
  reference?: string;
}
export type RateLimitWindow = Schemas['RateLimitWindow'];

/** Why a stock level changed. */
export type ChangeReason = Schemas['ChangeReason'];

/** The body of `inventory.update`. */
export type InventoryUpdate = Schemas['InventoryUpdate'] & {
  reason?: ChangeReason;
  /** The document behind the change (a purchase order URI, a count sheet), 1..255 characters. */
  reference?: string;
};

/** One change of a pet's stock level or status, as the change feed lists it. */
export interface InventoryChange {
  id: bigint;
  petId: bigint;
  /** null when the change created the pet (an import). */
  previousQuantity: number | null;
  quantity: number;
  previousStatus: PetStatus | null;
  status: PetStatus;
  reason: ChangeReason | null;
  reference: string | null;
  source: 'api' | 'import';
  /** The API key that made the change (null for an import). */
  keyId: bigint | null;
  requestId: string | null;
  /** RFC 3339, UTC. */
  changedAt: string;
}

/** An item as `inventory.get` and `inventory.update` answer it, with its `ETag` for `ifMatch`. */
export type VersionedInventoryItem = InventoryItem & {
  /** The item's strong `ETag` (not enumerable, so it is not serialised with the item). */
  readonly etag?: string;
};

/** `inventory.list`'s answer: the items, and where the change feed continues from them. */
export type InventoryListing = InventoryItem[] & {
  /** `X-Changes-Cursor`: following `inventory.changes({ after })` from it yields exactly the changes the listing does not show yet (not enumerable). */
  readonly changesCursor?: string;
};

/** Why and on which document a stock level changes (`inventory.adjust`). */
export interface ChangeContext {
  reason?: ChangeReason;
  /** The document behind the change (an order number, a purchase order URI), 1..255 characters. */
  reference?: string;
}

/** One line of `inventory.batch`: a set (`quantity`) or an adjustment (`delta`), exactly one. */
export type StockChange = ChangeContext & {
  petId: bigint;
  /** Apply only while the pet holds exactly this many (after the lines before); else 409 `quantity_mismatch`. */
  expectedQuantity?: number;
} & ({ quantity: number; delta?: never } | { delta: number; quantity?: never });

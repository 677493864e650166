import { ChangeFeed, type ChangesOptions, nextLink } from './feed.js';
import { Transport, type CallOptions, type TransportOptions } from './transport.js';
import type {
  ChangeContext,
  Hold,
  HoldConfirmation,
  HoldOptions,
  InventoryItem,
  InventoryListing,
  InventoryUpdate,
  Order,
  Pet,
  RateLimitStatus,
  StockChange,
  VersionedInventoryItem,
} from './types.js';

export interface ClientOptions extends TransportOptions {
  /** The base address, ending in `/v1`, e.g. `https://api.example.com/v1`. */
  baseUrl: string;
  /** The API key (`pk_live_…` or `pk_test_…`). */
  apiKey?: string;
}

export interface UpdateOptions extends CallOptions {
  /** Apply only if the item is still in this state: its `etag` (or several), or `*`. Else `ApiError` 412. */
  ifMatch?: string | string[];
}

export interface InventoryClient {
  inventory: {
    list(options?: CallOptions): Promise<InventoryListing>;
    get(petId: bigint, options?: CallOptions): Promise<VersionedInventoryItem>;
    update(
      petId: bigint,
      update: InventoryUpdate,
      options?: UpdateOptions,
    ): Promise<VersionedInventoryItem>;
    /**
     * Adds `delta` (negative takes out) to a pet's stock. Sent with one Idempotency-Key, the same
     * on every retry, so a call retried after a lost answer is applied once. `ApiError` 409
     * `insufficient_stock` when the stock would fall below 0.
     */
    adjust(
      petId: bigint,
      delta: number,
      options?: ChangeContext & CallOptions,
    ): Promise<VersionedInventoryItem>;
    /**
     * Applies 1 to 100 changes in order, all or none (one Idempotency-Key per call, as `adjust`).
     * Answers each line's item after it, in line order.
     */
    batch(changes: readonly StockChange[], options?: CallOptions): Promise<InventoryItem[]>;
    changes(options?: ChangesOptions): ChangeFeed;
    history(petId: bigint, options?: ChangesOptions): ChangeFeed;
  };
  holds: {
    /**
     * Keeps `quantity` units of a pet until confirmed, released or expired. Sent with its own
     * Idempotency-Key, the same on every retry, so a retried call makes one hold. `ApiError` 409
     * `insufficient_stock` when fewer units are available.
     */
    create(petId: bigint, quantity: number, options?: HoldOptions & CallOptions): Promise<Hold>;
    /** Sells the held units (one change, reason `sold`); `HoldNotActiveError` once released or expired. */
    confirm(holdId: string, options?: CallOptions): Promise<HoldConfirmation>;
    /** Gives the units back; `HoldNotActiveError` once confirmed. */
    release(holdId: string, options?: CallOptions): Promise<Hold>;
    get(holdId: string, options?: CallOptions): Promise<Hold>;
    /** The pet's active holds, oldest first, every page of them. */
    list(petId: bigint, options?: CallOptions): Promise<Hold[]>;
  };
  orders: { list(options?: CallOptions): Promise<Order[]> };
  pets: { get(petId: bigint, options?: CallOptions): Promise<Pet> };
  rateLimit: { get(options?: CallOptions): Promise<RateLimitStatus> };
}

function idSegment(petId: bigint): string {
  if (typeof petId !== 'bigint') throw new TypeError(`petId must be a bigint, not ${typeof petId}`);
  return petId.toString();
}

/** A JSON petId: a number while exact as a double, else its digits (the service takes both). */
function bodyPetId(petId: bigint): number | string {
  idSegment(petId);
  return petId <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(petId) : petId.toString();
}

function hidden<T extends object>(target: T, name: string, value: string | null): T {
  if (value !== null) Object.defineProperty(target, name, { value, enumerable: false });
  return target;
}

/** A client of the Pet Store Inventory API. */
export function createClient(options: ClientOptions): InventoryClient {
  const transport = new Transport(options);
  let deprecationWarned = false;

  const get = async <T>(path: string, call: CallOptions = {}) =>
    transport.send<T>({ method: 'GET', path, signal: call.signal });

  return {
    inventory: {
      async list(call) {
        const { data, headers } = await get<InventoryItem[]>('/inventory', call);
        return hidden(data, 'changesCursor', headers.get('x-changes-cursor'));
      },
      async get(petId, call) {
        const { data, headers } = await get<InventoryItem>(`/inventory/${idSegment(petId)}`, call);
        return hidden(data, 'etag', headers.get('etag'));
      },
      async update(petId, update, { ifMatch, signal } = {}) {
        const headers: Record<string, string> = {};
        if (ifMatch !== undefined)
          headers['if-match'] = Array.isArray(ifMatch) ? ifMatch.join(', ') : ifMatch;
        const answer = await transport.send<InventoryItem>({
          method: 'PATCH',
          path: `/inventory/${idSegment(petId)}`,
          body: update,
          headers,
          signal,
        });
        return hidden(answer.data, 'etag', answer.headers.get('etag'));
      },
      async adjust(petId, delta, { reason, reference, signal } = {}) {
        const answer = await transport.send<InventoryItem>({
          method: 'POST',
          path: `/inventory/${idSegment(petId)}/adjustments`,
          body: { delta, reason, reference },
          headers: { 'idempotency-key': crypto.randomUUID() },
          signal,
        });
        return hidden(answer.data, 'etag', answer.headers.get('etag'));
      },
      async batch(changes, call = {}) {
        const answer = await transport.send<{ items: InventoryItem[] }>({
          method: 'POST',
          path: '/inventory/batch',
          body: {
            changes: changes.map((change) => ({ ...change, petId: bodyPetId(change.petId) })),
          },
          headers: { 'idempotency-key': crypto.randomUUID() },
          signal: call.signal,
        });
        return answer.data.items;
      },
      changes(feed) {
        return new ChangeFeed(transport, '/inventory/changes', feed);
      },
      history(petId, feed) {
        return new ChangeFeed(transport, `/inventory/${idSegment(petId)}/changes`, feed);
      },
    },
    holds: {
      async create(petId, quantity, { expiresIn, reference, signal } = {}) {
        const answer = await transport.send<Hold>({
          method: 'POST',
          path: `/inventory/${idSegment(petId)}/holds`,
          body: { quantity, expiresIn, reference },
          headers: { 'idempotency-key': crypto.randomUUID() },
          signal,
        });
        return answer.data;
      },
      async confirm(holdId, call = {}) {
        const answer = await transport.send<HoldConfirmation>({
          method: 'POST',
          path: `/holds/${encodeURIComponent(holdId)}/confirm`,
          idempotent: true,
          signal: call.signal,
        });
        return answer.data;
      },
      async release(holdId, call = {}) {
        const answer = await transport.send<Hold>({
          method: 'POST',
          path: `/holds/${encodeURIComponent(holdId)}/release`,
          idempotent: true,
          signal: call.signal,
        });
        return answer.data;
      },
      async get(holdId, call) {
        return (await get<Hold>(`/holds/${encodeURIComponent(holdId)}`, call)).data;
      },
      async list(petId, call) {
        const holds: Hold[] = [];
        // Every page, following the service's own `Link rel="next"`.
        for (let path: string | undefined = `/inventory/${idSegment(petId)}/holds`; path;) {
          const { data, headers } = await get<Hold[]>(path, call);
          holds.push(...data);
          path = nextLink(headers.get('link'));
        }
        return holds;
      },
    },
    orders: {
      async list(call) {
        return (await get<Order[]>('/store/orders', call)).data;
      },
    },
    pets: {
      async get(petId, call) {
        const { data, headers } = await get<Pet>(`/pets/${idSegment(petId)}`, call);
        const deprecation = headers.get('deprecation');
        if (deprecation !== null && !deprecationWarned) {
          deprecationWarned = true;
          const sunset = headers.get('sunset');
          const date = sunset ? new Date(sunset) : undefined;
          const when =
            date && !Number.isNaN(date.getTime())
              ? `on ${date.toISOString().slice(0, 10)}`
              : 'at a date still to be announced';
          transport.warn(
            `GET /v1/pets/{petId} is deprecated and will be removed ${when} (Sunset: ${sunset ?? 'not given'}); read stock and status with inventory.get or inventory.list`,
          );
        }
        return data;
      },
    },
    rateLimit: {
      async get(call) {
        const answer = await transport.send<RateLimitStatus>({
          method: 'GET',
          path: '/rate_limit',
          signal: call?.signal,
          counted: false,
        });
        return answer.data;
      },
    },
  };
}

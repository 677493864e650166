/**
 * Generated from the service's OpenAPI document by `npm run client:types`; do not edit.
 * A test fails when this file and the document differ.
 */

export interface paths {
    "/holds/{holdId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * [experimental] Get a hold
         * @description **Stability: experimental.** The request or response shape may change before the operation becomes stable.
         *
         *     **Any key**, `read` or `write`.
         *
         *     One hold, in any status: an active one reads `expired` from its `expiresAt` on.
         */
        get: operations["getHold"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/holds/{holdId}/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * [experimental] [write scope] Confirm a hold: sell its units
         * @description **Stability: experimental.** The request or response shape may change before the operation becomes stable.
         *
         *     **Requires a `write` key.** A `read` key gets 403 `forbidden` and nothing changes.
         *
         *     The held units leave stock in one change (`reason` `sold`, `reference` the hold's; quantity 0 marks the pet `sold`), recorded in the history and sent to webhooks; the hold becomes `confirmed`. Confirming a confirmed hold answers the same again and changes nothing.
         */
        post: operations["confirmHold"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/holds/{holdId}/release": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * [experimental] [write scope] Release a hold
         * @description **Stability: experimental.** The request or response shape may change before the operation becomes stable.
         *
         *     **Requires a `write` key.** A `read` key gets 403 `forbidden` and nothing changes.
         *
         *     Gives the held units back at once (a cart abandoned). Releasing a released or expired hold answers it unchanged.
         */
        post: operations["releaseHold"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/inventory": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * [beta] List inventory
         * @description **Stability: beta.** The shape is settled: a breaking change comes only as a new operation, after this one is deprecated with a sunset date.
         *
         *     **Any key**, `read` or `write`.
         *
         *     Returns current stock levels for all pets in the store, by ascending petId.
         */
        get: operations["listInventory"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/inventory/{petId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * [experimental] Get one stock level
         * @description **Stability: experimental.** The request or response shape may change before the operation becomes stable.
         *
         *     **Any key**, `read` or `write`.
         *
         *     Returns the stock level of one pet, with a strong `ETag` of its state.
         */
        get: operations["getInventoryItem"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        /**
         * [experimental] [write scope] Update stock level
         * @description **Stability: experimental.** The request or response shape may change before the operation becomes stable.
         *
         *     **Requires a `write` key.** A `read` key gets 403 `forbidden` and nothing changes.
         *
         *     Sets the stock quantity of one pet. Quantity 0 marks the pet `sold`; a positive quantity makes a `sold` pet `available`; `pending` stays while stock remains. Every change is recorded in the stock history; a write that changes nothing records nothing.
         */
        patch: operations["updateInventory"];
        trace?: never;
    };
    "/inventory/{petId}/adjustments": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * [experimental] [write scope] Adjust stock level
         * @description **Stability: experimental.** The request or response shape may change before the operation becomes stable.
         *
         *     **Requires a `write` key.** A `read` key gets 403 `forbidden` and nothing changes.
         *
         *     Adds `delta` to one pet's stock (negative takes out), atomically: concurrent adjustments all count. The status follows as on `PATCH`. Refused with 409 when the stock would fall below 0. Safe to retry with the same `Idempotency-Key`.
         */
        post: operations["adjustInventory"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/inventory/{petId}/changes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * [experimental] Stock history of one pet
         * @description **Stability: experimental.** The request or response shape may change before the operation becomes stable.
         *
         *     **Any key**, `read` or `write`.
         *
         *     The changes of one pet's quantity or status, oldest first, paged like `GET /v1/inventory/changes`.
         */
        get: operations["listPetInventoryChanges"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/inventory/{petId}/holds": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * [experimental] List a pet's active holds
         * @description **Stability: experimental.** The request or response shape may change before the operation becomes stable.
         *
         *     **Any key**, `read` or `write`.
         *
         *     The holds keeping units of this pet now, oldest first, at most `limit` (1,000 unless asked for fewer); a full page carries `Link rel="next"` to the rest.
         */
        get: operations["listPetHolds"];
        put?: never;
        /**
         * [experimental] [write scope] Hold units of a pet
         * @description **Stability: experimental.** The request or response shape may change before the operation becomes stable.
         *
         *     **Requires a `write` key.** A `read` key gets 403 `forbidden` and nothing changes.
         *
         *     Keeps `quantity` units of one pet for a buyer until `expiresAt` (a cart at checkout): other holds and removals cannot take them, and `available` falls by them at once. Confirm it to sell them, release it to give them back. Safe to retry with the same `Idempotency-Key`.
         */
        post: operations["createHold"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/inventory/batch": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * [experimental] [write scope] Change several stock levels at once
         * @description **Stability: experimental.** The request or response shape may change before the operation becomes stable.
         *
         *     **Requires a `write` key.** A `read` key gets 403 `forbidden` and nothing changes.
         *
         *     Applies 1 to 100 lines in order, each a set (`quantity`) or an adjustment (`delta`), optionally only if the pet holds `expectedQuantity`: all of them in one transaction, or none. Counts as one request per line against the rate limit (a replay counts as one). Safe to retry with the same `Idempotency-Key`.
         */
        post: operations["batchUpdateInventory"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/inventory/changes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * [experimental] Follow stock changes
         * @description **Stability: experimental.** The request or response shape may change before the operation becomes stable.
         *
         *     **Any key**, `read` or `write`.
         *
         *     Every change of any pet's quantity or status, oldest first, strictly after the cursor. Start from `X-Changes-Cursor` of `GET /v1/inventory` and follow `Link rel="next"`: no change is missed or repeated, whichever instance made it.
         */
        get: operations["listInventoryChanges"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/pets/{petId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * [beta] [deprecated] Find a pet by id
         * @deprecated
         * @description **Stability: beta.** The shape is settled: a breaking change comes only as a new operation, after this one is deprecated with a sunset date.
         *
         *     **Any key**, `read` or `write`.
         *
         *     **Deprecated** since 2026-06-30; sunset on 2027-06-30. Responses carry `Deprecation`, `Sunset` and `Link` headers; after the sunset the operation answers 410 `gone`.
         *
         *     Returns the id, name and status of one pet. For stock levels and statuses use `listInventory`.
         */
        get: operations["getPetById"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/rate_limit": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * [beta] Get rate-limit status
         * @description **Stability: beta.** The shape is settled: a breaking change comes only as a new operation, after this one is deprecated with a sunset date.
         *
         *     **Any key**, `read` or `write`.
         *
         *     The caller's plan, the limit, remaining requests and reset of both windows, and the end of any ban. Not counted: calling it never changes `remaining`, and it answers also while the key is limited or banned.
         */
        get: operations["getRateLimit"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/store/orders": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * [experimental] List orders
         * @description **Stability: experimental.** The request or response shape may change before the operation becomes stable.
         *
         *     **Any key**, `read` or `write`.
         *
         *     Every order placed with the store, by ascending id.
         */
        get: operations["listOrders"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /**
         * @description Why the stock changed: `received` (new arrival), `returned`, `correction` (manual adjustment), `damaged`, `sold`, `other`. Recorded in the history.
         * @enum {string}
         */
        ChangeReason: "received" | "returned" | "correction" | "damaged" | "sold" | "other";
        /** @description The body of every error response. */
        Error: {
            /**
             * @description Machine-readable error code; each code always travels with the same HTTP status
             * @example not_found
             */
            code: components["schemas"]["ErrorCode"];
            /** @description More about the failure where its code defines it: for `precondition_failed`, `current` holds the current InventoryItem */
            details?: {
                [key: string]: unknown;
            };
            /**
             * @description Human-readable description of the error
             * @example No pet with id 42
             */
            message: string;
            /**
             * Format: int32
             * @description The HTTP status code of the response
             * @example 404
             */
            status: number;
        };
        /**
         * @description Machine-readable error code; each code always travels with the same HTTP status
         * @enum {string}
         */
        ErrorCode: "validation_failed" | "unauthorized" | "forbidden" | "not_found" | "request_timeout" | "gone" | "insufficient_stock" | "quantity_mismatch" | "idempotency_key_in_use" | "hold_not_active" | "precondition_failed" | "payload_too_large" | "unsupported_media_type" | "idempotency_key_reused" | "rate_limit_exceeded" | "api_key_banned" | "headers_too_large" | "internal_error" | "service_unavailable";
        Hold: {
            /**
             * Format: date-time
             * @example 2026-11-28T10:00:00.000Z
             */
            createdAt: string;
            /**
             * Format: date-time
             * @description When it was confirmed, released or expired; null while active
             * @example null
             */
            endedAt: string | null;
            /**
             * Format: date-time
             * @description When the hold ends by itself, unless confirmed or released first
             * @example 2026-11-28T10:15:00.000Z
             */
            expiresAt: string;
            /**
             * @description Identifier of the hold (opaque)
             * @example 3f0c2a9e-6b1d-4c8e-9a57-2d4b8f1e7c30
             */
            holdId: string;
            /**
             * Format: int64
             * @description The pet held
             * @example 42
             */
            petId: number;
            /**
             * Format: int32
             * @description Units kept
             * @example 1
             */
            quantity: number;
            /**
             * @description The reference given at creation, or null
             * @example cart-8d1f
             */
            reference: string | null;
            /** @description `active` keeps its units; `confirmed` sold them; `released` and `expired` keep nothing */
            status: components["schemas"]["HoldStatus"];
        };
        HoldConfirmation: {
            hold: components["schemas"]["Hold"];
            item: components["schemas"]["InventoryItem"];
        };
        HoldRequest: {
            /**
             * Format: int32
             * @description Seconds until the hold ends by itself, unless confirmed or released first
             * @default 900
             * @example 900
             */
            expiresIn: number;
            /**
             * Format: int32
             * @description How many units to keep
             * @example 1
             */
            quantity: number;
            /**
             * @description The shop's own name for what the hold is for (a cart, an order); the stock change of its confirm carries it
             * @example cart-8d1f
             */
            reference?: string;
        };
        /**
         * @description `active` keeps its units; `confirmed` sold them; `released` and `expired` keep nothing
         * @enum {string}
         */
        HoldStatus: "active" | "confirmed" | "released" | "expired";
        InventoryAdjustment: {
            /**
             * Format: int32
             * @description How much the stock changes: negative takes out (a sale, a loss), positive adds. Not 0.
             * @example -1
             */
            delta: number;
            /** @description Why the stock changed: `received` (new arrival), `returned`, `correction` (manual adjustment), `damaged`, `sold`, `other`. Recorded in the history. */
            reason?: components["schemas"]["ChangeReason"];
            /**
             * @description The document behind the change (a purchase order URI, a count sheet, an order number). Recorded in the history.
             * @example https://shop.example.com/orders/1001
             */
            reference?: string;
        };
        InventoryBatch: {
            /** @description 1 to 100 lines, applied in order, all or none */
            changes: components["schemas"]["StockChangeLine"][];
        };
        InventoryBatchResult: {
            /** @description The entry of each line after the batch, in line order */
            items: components["schemas"]["InventoryItem"][];
        };
        InventoryChange: {
            /**
             * Format: date-time
             * @example 2026-11-24T06:00:00.000Z
             */
            changedAt: string;
            /**
             * Format: int64
             * @description Position of the change in the feed; later changes have greater ids
             */
            id: number;
            /**
             * Format: int64
             * @description The API key that made the change
             */
            keyId: number | null;
            /**
             * Format: int64
             * @example 42
             */
            petId: number;
            /** @description null when an import created the pet */
            previousQuantity: number | null;
            /**
             * @description null when an import created the pet
             * @enum {string|null}
             */
            previousStatus: "available" | "pending" | "sold" | null;
            /** @example 12 */
            quantity: number;
            /** @enum {string|null} */
            reason: "received" | "returned" | "correction" | "damaged" | "sold" | "other" | null;
            /** @description The document behind the change */
            reference: string | null;
            /** @description The `X-Request-Id` of the request that made the change */
            requestId: string | null;
            /**
             * @description `api`: a PATCH; `import`: the CLI import
             * @enum {string}
             */
            source: "api" | "import";
            status: components["schemas"]["PetStatus"];
        };
        InventoryItem: {
            /**
             * Format: int32
             * @description What can still be sold or held: `quantity` minus the units of active holds, never below 0
             * @example 10
             */
            available: number;
            /**
             * Format: int64
             * @description Identifier of the animal the entry tracks
             * @example 42
             */
            petId: number;
            /**
             * Format: int32
             * @description Current stock count
             * @example 12
             */
            quantity: number;
            /** @description Status of the pet */
            status: components["schemas"]["PetStatus"];
        };
        InventoryUpdate: {
            /**
             * Format: int32
             * @description The new stock count
             * @example 12
             */
            quantity: number;
            /** @description Why the stock changed: `received` (new arrival), `returned`, `correction` (manual adjustment), `damaged`, `sold`, `other`. Recorded in the history. */
            reason?: components["schemas"]["ChangeReason"];
            /**
             * @description The document behind the change (a purchase order URI, a count sheet, an order number). Recorded in the history.
             * @example https://shop.example.com/orders/1001
             */
            reference?: string;
        };
        Order: {
            /**
             * @description Whether the order is complete
             * @example false
             */
            complete: boolean;
            /**
             * Format: int64
             * @description Identifier of the order, as the store system numbers it
             * @example 1001
             */
            id: number;
            /**
             * Format: int64
             * @description Identifier of the ordered pet
             * @example 1
             */
            petId: number;
            /**
             * Format: int32
             * @description How many were ordered
             * @example 2
             */
            quantity: number;
            /**
             * Format: date-time
             * @description When the order ships or shipped (UTC); absent until it is scheduled
             * @example 2026-12-01T09:30:00.000Z
             */
            shipDate?: string;
            /** @description Where the order stands */
            status: components["schemas"]["OrderStatus"];
        };
        /**
         * @description Where the order stands
         * @enum {string}
         */
        OrderStatus: "placed" | "approved" | "delivered";
        Pet: {
            /**
             * Format: int64
             * @description Identifier of the pet
             * @example 1
             */
            id: number;
            /**
             * @description Name of the pet; null when the catalogue holds none (inventory imports may omit names)
             * @example Rex
             */
            name: string | null;
            /** @description Status of the pet */
            status: components["schemas"]["PetStatus"];
        };
        /** @enum {string} */
        PetStatus: "available" | "pending" | "sold";
        /**
         * @description The key's plan
         * @enum {string}
         */
        Plan: "free" | "pro" | "business" | "enterprise";
        RateLimitStatus: {
            /**
             * Format: int64
             * @description When the current ban ends, in Unix seconds; null when not banned
             * @example null
             */
            bannedUntil: number | null;
            /**
             * @description The key's plan
             * @example free
             */
            plan: components["schemas"]["Plan"];
            /** @description The minute and the UTC day, in that order */
            windows: components["schemas"]["RateLimitWindow"][];
        };
        RateLimitWindow: {
            /**
             * @description Requests allowed in it
             * @example 60
             */
            limit: number;
            /**
             * @description Which window
             * @example minute
             * @enum {string}
             */
            name: "minute" | "day";
            /**
             * @description Requests left in it now (0 while banned)
             * @example 59
             */
            remaining: number;
            /**
             * Format: int64
             * @description When it resets, in Unix seconds (while banned: not before the ban ends)
             * @example 1795000020
             */
            reset: number;
        };
        StockChangeLine: {
            /**
             * Format: int32
             * @description How much the stock changes (an adjustment), not 0. Exactly one of `quantity` and `delta`.
             * @example -1
             */
            delta?: number;
            /**
             * Format: int32
             * @description Apply the line only if the pet holds exactly this many now (after the earlier lines of the batch); else the whole batch is refused with 409 `quantity_mismatch`
             * @example 13
             */
            expectedQuantity?: number;
            /**
             * @description The pet whose stock changes: an integer, or a string of digits (for clients whose JSON numbers lose precision above 9007199254740991)
             * @example 42
             */
            petId: number | string;
            /**
             * Format: int32
             * @description The new stock count (a set). Exactly one of `quantity` and `delta`.
             * @example 12
             */
            quantity?: number;
            /** @description Why the stock changed: `received` (new arrival), `returned`, `correction` (manual adjustment), `damaged`, `sold`, `other`. Recorded in the history. */
            reason?: components["schemas"]["ChangeReason"];
            /**
             * @description The document behind the change (a purchase order URI, a count sheet, an order number). Recorded in the history.
             * @example https://shop.example.com/orders/1001
             */
            reference?: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: {
        /** @description When the operation was deprecated, as `@<Unix seconds>` (RFC 9745) */
        Deprecation: string;
        /** @description Documentation of the deprecation (`rel="deprecation"`) and of the sunset (`rel="sunset"`) */
        Link: string;
        /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers) */
        RateLimit: string;
        /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400` */
        "RateLimit-Policy": string;
        /** @description Whole seconds (at least 1) to wait before retrying */
        "Retry-After": number;
        /** @description When the operation stops being served, as an HTTP date (RFC 8594) */
        Sunset: string;
        /** @description The authentication scheme to use (RFC 6750) */
        "WWW-Authenticate": string;
        /** @description Requests allowed in the window (minute or UTC day) with the least remaining */
        "X-RateLimit-Limit": number;
        /** @description Requests left in that window, this one counted */
        "X-RateLimit-Remaining": number;
        /** @description When that window resets, in Unix seconds */
        "X-RateLimit-Reset": number;
        /** @description The request's id (the client's own `X-Request-Id` when well formed); quote it when reporting a problem */
        "X-Request-Id": string;
    };
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getHold: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `ETag` of an answer the client holds: while it is current, the answer is 304 without a body. */
                "If-None-Match"?: string;
            };
            path: {
                /** @description Identifier of the hold, as `createHold` answered it */
                holdId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The hold */
            200: {
                headers: {
                    /** @description A weak validator of this answer: it changes whenever the answer does */
                    ETag: string;
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Hold"];
                };
            };
            /** @description Not Modified: the answer still matches `If-None-Match`; no body */
            304: {
                headers: {
                    /** @description A weak validator of this answer: it changes whenever the answer does */
                    ETag: string;
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request is malformed: `Authorization` is sent more than once, or its chunked body is broken */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No usable API key: none was sent, it was sent without the `Bearer` scheme, it belongs to another environment (by its prefix), or it is unknown or revoked. The message says which, except that an unknown key and a revoked one are told the same thing. See `WWW-Authenticate`. */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No hold has this `holdId` (unknown, malformed, or removed after HOLDS_RETENTION_DAYS) */
            404: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The client sent its request headers or its body too slowly (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS); the connection is closed */
            408: {
                headers: {
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "RateLimit-Policy"?: string;
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The rate limit is exceeded, or the key is temporarily banned for continuing after 429s. Retry after `Retry-After` seconds, backing off exponentially. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request headers are larger than the server accepts */
            431: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected error; the message quotes the request id (also in `X-Request-Id`) */
            500: {
                headers: {
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "RateLimit-Policy"?: string;
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A dependency (the database or the rate-limit store) is unavailable; retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "RateLimit-Policy"?: string;
                    "Retry-After": components["headers"]["Retry-After"];
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    confirmHold: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the hold, as `createHold` answered it */
                holdId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The confirmed hold and the item after it */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["HoldConfirmation"];
                };
            };
            /** @description The request is malformed: `Authorization` is sent more than once, or its chunked body is broken */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No usable API key: none was sent, it was sent without the `Bearer` scheme, it belongs to another environment (by its prefix), or it is unknown or revoked. The message says which, except that an unknown key and a revoked one are told the same thing. See `WWW-Authenticate`. */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is valid but its scope does not allow the operation: a `read` key may only read */
            403: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No hold has this `holdId` (unknown, malformed, or removed after HOLDS_RETENTION_DAYS) */
            404: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The client sent its request headers or its body too slowly (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS); the connection is closed */
            408: {
                headers: {
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "RateLimit-Policy"?: string;
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The hold was released or has expired (`hold_not_active`, the hold in `details.current`), or stock holds fewer units than the hold keeps, since a `PATCH` counted less (`insufficient_stock`, the item in `details.current`; the hold stays active). Nothing changed. */
            409: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The rate limit is exceeded, or the key is temporarily banned for continuing after 429s. Retry after `Retry-After` seconds, backing off exponentially. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request headers are larger than the server accepts */
            431: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected error; the message quotes the request id (also in `X-Request-Id`) */
            500: {
                headers: {
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "RateLimit-Policy"?: string;
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A dependency (the database or the rate-limit store) is unavailable; retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "RateLimit-Policy"?: string;
                    "Retry-After": components["headers"]["Retry-After"];
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    releaseHold: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the hold, as `createHold` answered it */
                holdId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The hold, released (or as it ended) */
            200: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Hold"];
                };
            };
            /** @description The request is malformed: `Authorization` is sent more than once, or its chunked body is broken */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No usable API key: none was sent, it was sent without the `Bearer` scheme, it belongs to another environment (by its prefix), or it is unknown or revoked. The message says which, except that an unknown key and a revoked one are told the same thing. See `WWW-Authenticate`. */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is valid but its scope does not allow the operation: a `read` key may only read */
            403: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No hold has this `holdId` (unknown, malformed, or removed after HOLDS_RETENTION_DAYS) */
            404: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The client sent its request headers or its body too slowly (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS); the connection is closed */
            408: {
                headers: {
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "RateLimit-Policy"?: string;
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The hold was confirmed: its units were sold (`hold_not_active`, the hold in `details.current`). Nothing changed. */
            409: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The rate limit is exceeded, or the key is temporarily banned for continuing after 429s. Retry after `Retry-After` seconds, backing off exponentially. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request headers are larger than the server accepts */
            431: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected error; the message quotes the request id (also in `X-Request-Id`) */
            500: {
                headers: {
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "RateLimit-Policy"?: string;
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A dependency (the database or the rate-limit store) is unavailable; retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "RateLimit-Policy"?: string;
                    "Retry-After": components["headers"]["Retry-After"];
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listInventory: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `ETag` of a listing the client holds: while it is current, the answer is 304 without a body. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The stock level of every pet */
            200: {
                headers: {
                    /** @description `private, no-cache`: a client may keep the listing but revalidates it before use */
                    "Cache-Control": "private, no-cache";
                    /** @description A strong validator of the listing: it changes whenever any stock level or status does */
                    ETag: string;
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Where this listing stands in the change feed: `GET /v1/inventory/changes?after=<cursor>` yields exactly the changes it does not show yet */
                    "X-Changes-Cursor": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InventoryItem"][];
                };
            };
            /** @description Not Modified: the listing still matches `If-None-Match`; no body */
            304: {
                headers: {
                    /** @description `private, no-cache`: a client may keep the listing but revalidates it before use */
                    "Cache-Control": "private, no-cache";
                    /** @description A strong validator of the listing: it changes whenever any stock level or status does */
                    ETag: string;
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    /** @description Where this listing stands in the change feed: `GET /v1/inventory/changes?after=<cursor>` yields exactly the changes it does not show yet */
                    "X-Changes-Cursor": string;
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request is malformed: `Authorization` is sent more than once, or its chunked body is broken */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No usable API key: none was sent, it was sent without the `Bearer` scheme, it belongs to another environment (by its prefix), or it is unknown or revoked. The message says which, except that an unknown key and a revoked one are told the same thing. See `WWW-Authenticate`. */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The client sent its request headers or its body too slowly (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS); the connection is closed */
            408: {
                headers: {
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "RateLimit-Policy"?: string;
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The rate limit is exceeded, or the key is temporarily banned for continuing after 429s. Retry after `Retry-After` seconds, backing off exponentially. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request headers are larger than the server accepts */
            431: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected error; the message quotes the request id (also in `X-Request-Id`) */
            500: {
                headers: {
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "RateLimit-Policy"?: string;
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A dependency (the database or the rate-limit store) is unavailable; retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "RateLimit-Policy"?: string;
                    "Retry-After": components["headers"]["Retry-After"];
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getInventoryItem: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Identifier of the pet: decimal digits, 1 to 9223372036854775807 */
                petId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The entry */
            200: {
                headers: {
                    /** @description A strong validator of this item's state, for `If-Match` on `PATCH` */
                    ETag: string;
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InventoryItem"];
                };
            };
            /** @description The request is malformed: `Authorization` is sent more than once, or its chunked body is broken */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No usable API key: none was sent, it was sent without the `Bearer` scheme, it belongs to another environment (by its prefix), or it is unknown or revoked. The message says which, except that an unknown key and a revoked one are told the same thing. See `WWW-Authenticate`. */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No pet has this `petId` */
            404: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The client sent its request headers or its body too slowly (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS); the connection is closed */
            408: {
                headers: {
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "RateLimit-Policy"?: string;
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The rate limit is exceeded, or the key is temporarily banned for continuing after 429s. Retry after `Retry-After` seconds, backing off exponentially. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request headers are larger than the server accepts */
            431: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected error; the message quotes the request id (also in `X-Request-Id`) */
            500: {
                headers: {
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "RateLimit-Policy"?: string;
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A dependency (the database or the rate-limit store) is unavailable; retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "RateLimit-Policy"?: string;
                    "Retry-After": components["headers"]["Retry-After"];
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateInventory: {
        parameters: {
            query?: never;
            header?: {
                /** @description One or more strong `ETag`s of the item (from `GET /v1/inventory/{petId}` or an earlier `PATCH`), or `*`: the update applies only while the item still has one of them, else 412. */
                "If-Match"?: string;
            };
            path: {
                /** @description Identifier of the pet: decimal digits, 1 to 9223372036854775807 */
                petId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InventoryUpdate"];
                "application/merge-patch+json": components["schemas"]["InventoryUpdate"];
            };
        };
        responses: {
            /** @description The updated entry */
            200: {
                headers: {
                    /** @description A strong validator of this item's state, for `If-Match` on `PATCH` */
                    ETag: string;
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InventoryItem"];
                };
            };
            /** @description The request holds invalid values: `petId` is not an integer from 1 to 9223372036854775807, or the body is not a JSON object with an integer `quantity` from 0 to 2147483647 and at most an optional `reason` (received, returned, correction, damaged, sold, other) and `reference` (1 to 255 characters) (missing, malformed, an array, or with unknown fields); or `If-Match` is malformed; or `Authorization` is sent more than once */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No usable API key: none was sent, it was sent without the `Bearer` scheme, it belongs to another environment (by its prefix), or it is unknown or revoked. The message says which, except that an unknown key and a revoked one are told the same thing. See `WWW-Authenticate`. */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is valid but its scope does not allow the operation: a `read` key may only read */
            403: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No pet has this `petId` */
            404: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The client sent its request headers or its body too slowly (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS); the connection is closed */
            408: {
                headers: {
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "RateLimit-Policy"?: string;
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description `If-Match` names none of the item's current entity tags; nothing changed, and `details.current` holds the current item */
            412: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body exceeds 16 KiB (16384 bytes) */
            413: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not JSON this API reads: its media type is not `application/json` or `application/merge-patch+json`, it names a charset other than UTF-8 (such as `application/json; charset=iso-8859-1`), or it has an unsupported `Content-Encoding` */
            415: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The rate limit is exceeded, or the key is temporarily banned for continuing after 429s. Retry after `Retry-After` seconds, backing off exponentially. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request headers are larger than the server accepts */
            431: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected error; the message quotes the request id (also in `X-Request-Id`) */
            500: {
                headers: {
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "RateLimit-Policy"?: string;
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A dependency (the database or the rate-limit store) is unavailable; retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "RateLimit-Policy"?: string;
                    "Retry-After": components["headers"]["Retry-After"];
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    adjustInventory: {
        parameters: {
            query?: never;
            header: {
                /** @description A unique value per change (a UUID), 1 to 255 characters, sent again unchanged on every retry of that change: a change is applied once per key and API key, and a retry gets the first answer again, with `Idempotent-Replayed: true`. Kept IDEMPOTENCY_RETENTION_HOURS (default 24 h). */
                "Idempotency-Key": string;
            };
            path: {
                /** @description Identifier of the pet: decimal digits, 1 to 9223372036854775807 */
                petId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InventoryAdjustment"];
            };
        };
        responses: {
            /** @description The adjusted entry */
            200: {
                headers: {
                    /** @description A strong validator of the item's new state, for `If-Match` on `PATCH` */
                    ETag: string;
                    /** @description `true` when this is the kept first answer to an earlier request with the same `Idempotency-Key`, sent again; absent otherwise */
                    "Idempotent-Replayed"?: "true";
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InventoryItem"];
                };
            };
            /** @description The request holds invalid values: `petId` is not an integer from 1 to 9223372036854775807; the body is not a JSON object with a non-zero integer `delta` from -2147483647 to 2147483647 and at most an optional `reason` and `reference` (1 to 255 characters); `Idempotency-Key` is missing, empty or longer than 255 characters; or the adjustment would take the quantity above 2147483647 */
            400: {
                headers: {
                    /** @description `true` when this is the kept first answer to an earlier request with the same `Idempotency-Key`, sent again; absent otherwise */
                    "Idempotent-Replayed"?: "true";
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No usable API key: none was sent, it was sent without the `Bearer` scheme, it belongs to another environment (by its prefix), or it is unknown or revoked. The message says which, except that an unknown key and a revoked one are told the same thing. See `WWW-Authenticate`. */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is valid but its scope does not allow the operation: a `read` key may only read */
            403: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No pet has this `petId` */
            404: {
                headers: {
                    /** @description `true` when this is the kept first answer to an earlier request with the same `Idempotency-Key`, sent again; absent otherwise */
                    "Idempotent-Replayed"?: "true";
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The client sent its request headers or its body too slowly (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS); the connection is closed */
            408: {
                headers: {
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "RateLimit-Policy"?: string;
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The adjustment would leave less than 0 in stock (`insufficient_stock`, with the current item in `details.current`); nothing changed */
            409: {
                headers: {
                    /** @description `true` when this is the kept first answer to an earlier request with the same `Idempotency-Key`, sent again; absent otherwise */
                    "Idempotent-Replayed"?: "true";
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body exceeds 16 KiB (16384 bytes) */
            413: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not JSON this API reads: its media type is not `application/json` or `application/merge-patch+json`, it names a charset other than UTF-8 (such as `application/json; charset=iso-8859-1`), or it has an unsupported `Content-Encoding` */
            415: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The `Idempotency-Key` was already used, by this API key, for a different request (another method, path or body); nothing changed */
            422: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The rate limit is exceeded, or the key is temporarily banned for continuing after 429s. Retry after `Retry-After` seconds, backing off exponentially. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request headers are larger than the server accepts */
            431: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected error; the message quotes the request id (also in `X-Request-Id`) */
            500: {
                headers: {
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "RateLimit-Policy"?: string;
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A dependency (the database or the rate-limit store) is unavailable; retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "RateLimit-Policy"?: string;
                    "Retry-After": components["headers"]["Retry-After"];
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listPetInventoryChanges: {
        parameters: {
            query?: {
                /** @description An opaque cursor from `Link` or `X-Changes-Cursor`: only changes after it. Without it: from the oldest kept change. */
                after?: string;
                /** @description At most this many changes */
                limit?: number;
            };
            header?: never;
            path: {
                /** @description Identifier of the pet: decimal digits, 1 to 9223372036854775807 */
                petId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The pet's next changes */
            200: {
                headers: {
                    /** @description `no-store`: the newest page grows as changes are made; follow `Link` instead */
                    "Cache-Control": "no-store";
                    /** @description The next page: `</v1/inventory/changes?after=<cursor>&limit=<n>>; rel="next"`, on every page, also an empty one */
                    Link: string;
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InventoryChange"][];
                };
            };
            /** @description The request is malformed: `Authorization` is sent more than once, or its chunked body is broken */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No usable API key: none was sent, it was sent without the `Bearer` scheme, it belongs to another environment (by its prefix), or it is unknown or revoked. The message says which, except that an unknown key and a revoked one are told the same thing. See `WWW-Authenticate`. */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No pet has this `petId` */
            404: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The client sent its request headers or its body too slowly (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS); the connection is closed */
            408: {
                headers: {
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "RateLimit-Policy"?: string;
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The operation has passed its sunset date and is no longer served, or a change cursor is older than the kept history */
            410: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The rate limit is exceeded, or the key is temporarily banned for continuing after 429s. Retry after `Retry-After` seconds, backing off exponentially. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request headers are larger than the server accepts */
            431: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected error; the message quotes the request id (also in `X-Request-Id`) */
            500: {
                headers: {
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "RateLimit-Policy"?: string;
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A dependency (the database or the rate-limit store) is unavailable; retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "RateLimit-Policy"?: string;
                    "Retry-After": components["headers"]["Retry-After"];
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listPetHolds: {
        parameters: {
            query?: {
                /** @description An opaque cursor from `Link`: only the holds after it. Without it: from the oldest. */
                after?: string;
                /** @description At most this many holds */
                limit?: number;
            };
            header?: {
                /** @description The `ETag` of an answer the client holds: while it is current, the answer is 304 without a body. */
                "If-None-Match"?: string;
            };
            path: {
                /** @description Identifier of the pet: decimal digits, 1 to 9223372036854775807 */
                petId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The active holds, oldest first */
            200: {
                headers: {
                    /** @description A weak validator of this answer: it changes whenever the answer does */
                    ETag: string;
                    /** @description The next page, when this one is full: `</v1/inventory/{petId}/holds?after=<cursor>&limit=<n>>; rel="next"` */
                    Link?: string;
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Hold"][];
                };
            };
            /** @description Not Modified: the answer still matches `If-None-Match`; no body */
            304: {
                headers: {
                    /** @description A weak validator of this answer: it changes whenever the answer does */
                    ETag: string;
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request is malformed: `Authorization` is sent more than once, or its chunked body is broken */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No usable API key: none was sent, it was sent without the `Bearer` scheme, it belongs to another environment (by its prefix), or it is unknown or revoked. The message says which, except that an unknown key and a revoked one are told the same thing. See `WWW-Authenticate`. */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No pet has this `petId` */
            404: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The client sent its request headers or its body too slowly (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS); the connection is closed */
            408: {
                headers: {
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "RateLimit-Policy"?: string;
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The rate limit is exceeded, or the key is temporarily banned for continuing after 429s. Retry after `Retry-After` seconds, backing off exponentially. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request headers are larger than the server accepts */
            431: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected error; the message quotes the request id (also in `X-Request-Id`) */
            500: {
                headers: {
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "RateLimit-Policy"?: string;
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A dependency (the database or the rate-limit store) is unavailable; retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "RateLimit-Policy"?: string;
                    "Retry-After": components["headers"]["Retry-After"];
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createHold: {
        parameters: {
            query?: never;
            header: {
                /** @description A unique value per hold (a UUID), 1 to 255 characters, sent again unchanged on every retry: one hold per key and API key, and a retry gets the first answer again, with `Idempotent-Replayed: true`. */
                "Idempotency-Key": string;
            };
            path: {
                /** @description Identifier of the pet: decimal digits, 1 to 9223372036854775807 */
                petId: number;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["HoldRequest"];
            };
        };
        responses: {
            /** @description The hold, active */
            201: {
                headers: {
                    /** @description `true` when this is the kept first answer to an earlier request with the same `Idempotency-Key`, sent again; absent otherwise */
                    "Idempotent-Replayed"?: "true";
                    /** @description The new hold: `/v1/holds/{holdId}` */
                    Location: string;
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Hold"];
                };
            };
            /** @description The request holds invalid values: `petId` is not an integer from 1 to 9223372036854775807; the body is not a JSON object with an integer `quantity` from 1 to 2147483647 and at most an optional `expiresIn` (60 to 86400 seconds) and `reference` (1 to 255 characters); or `Idempotency-Key` is missing, empty or longer than 255 characters. Nothing changed. */
            400: {
                headers: {
                    /** @description `true` when this is the kept first answer to an earlier request with the same `Idempotency-Key`, sent again; absent otherwise */
                    "Idempotent-Replayed"?: "true";
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No usable API key: none was sent, it was sent without the `Bearer` scheme, it belongs to another environment (by its prefix), or it is unknown or revoked. The message says which, except that an unknown key and a revoked one are told the same thing. See `WWW-Authenticate`. */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is valid but its scope does not allow the operation: a `read` key may only read */
            403: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No pet has this `petId` */
            404: {
                headers: {
                    /** @description `true` when this is the kept first answer to an earlier request with the same `Idempotency-Key`, sent again; absent otherwise */
                    "Idempotent-Replayed"?: "true";
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The client sent its request headers or its body too slowly (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS); the connection is closed */
            408: {
                headers: {
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "RateLimit-Policy"?: string;
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description Fewer than `quantity` units are available (`insufficient_stock`, with the current item in `details.current`); nothing changed */
            409: {
                headers: {
                    /** @description `true` when this is the kept first answer to an earlier request with the same `Idempotency-Key`, sent again; absent otherwise */
                    "Idempotent-Replayed"?: "true";
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body exceeds 16 KiB (16384 bytes) */
            413: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not JSON this API reads: its media type is not `application/json` or `application/merge-patch+json`, it names a charset other than UTF-8 (such as `application/json; charset=iso-8859-1`), or it has an unsupported `Content-Encoding` */
            415: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The `Idempotency-Key` was already used, by this API key, for a different request (another method, path or body); nothing changed */
            422: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The rate limit is exceeded, or the key is temporarily banned for continuing after 429s. Retry after `Retry-After` seconds, backing off exponentially. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request headers are larger than the server accepts */
            431: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected error; the message quotes the request id (also in `X-Request-Id`) */
            500: {
                headers: {
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "RateLimit-Policy"?: string;
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A dependency (the database or the rate-limit store) is unavailable; retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "RateLimit-Policy"?: string;
                    "Retry-After": components["headers"]["Retry-After"];
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    batchUpdateInventory: {
        parameters: {
            query?: never;
            header: {
                /** @description A unique value per change (a UUID), 1 to 255 characters, sent again unchanged on every retry of that change: a change is applied once per key and API key, and a retry gets the first answer again, with `Idempotent-Replayed: true`. Kept IDEMPOTENCY_RETENTION_HOURS (default 24 h). */
                "Idempotency-Key": string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["InventoryBatch"];
            };
        };
        responses: {
            /** @description Every line applied: the entry of each line after it, in line order */
            200: {
                headers: {
                    /** @description `true` when this is the kept first answer to an earlier request with the same `Idempotency-Key`, sent again; absent otherwise */
                    "Idempotent-Replayed"?: "true";
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InventoryBatchResult"];
                };
            };
            /** @description The request holds invalid values: the body is not `{"changes": [...]}` with 1 to 100 lines, each with a `petId`, exactly one of `quantity` (0 to 2147483647) and `delta` (non-zero, -2147483647 to 2147483647), and at most `expectedQuantity`, `reason` and `reference`; `Idempotency-Key` is missing, empty or longer than 255 characters; a line would take a quantity above 2147483647 (then `details.lines` names it); or the batch has more lines than the minute or day quota of the API key can ever hold. Nothing changed. */
            400: {
                headers: {
                    /** @description `true` when this is the kept first answer to an earlier request with the same `Idempotency-Key`, sent again; absent otherwise */
                    "Idempotent-Replayed"?: "true";
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No usable API key: none was sent, it was sent without the `Bearer` scheme, it belongs to another environment (by its prefix), or it is unknown or revoked. The message says which, except that an unknown key and a revoked one are told the same thing. See `WWW-Authenticate`. */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The API key is valid but its scope does not allow the operation: a `read` key may only read */
            403: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A line names a pet that does not exist; nothing changed, and `details.lines` lists every refused line as `{index, code, current?}` */
            404: {
                headers: {
                    /** @description `true` when this is the kept first answer to an earlier request with the same `Idempotency-Key`, sent again; absent otherwise */
                    "Idempotent-Replayed"?: "true";
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The client sent its request headers or its body too slowly (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS); the connection is closed */
            408: {
                headers: {
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "RateLimit-Policy"?: string;
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A line's pet does not hold its `expectedQuantity` (`quantity_mismatch`) or a line would leave less than 0 (`insufficient_stock`); nothing changed, and `details.lines` lists every refused line as `{index, code, current}` */
            409: {
                headers: {
                    /** @description `true` when this is the kept first answer to an earlier request with the same `Idempotency-Key`, sent again; absent otherwise */
                    "Idempotent-Replayed"?: "true";
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request body exceeds 16 KiB (16384 bytes) */
            413: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The body is not JSON this API reads: its media type is not `application/json` or `application/merge-patch+json`, it names a charset other than UTF-8 (such as `application/json; charset=iso-8859-1`), or it has an unsupported `Content-Encoding` */
            415: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The `Idempotency-Key` was already used, by this API key, for a different request (another method, path or body); nothing changed */
            422: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The rate limit is exceeded, or the key is temporarily banned for continuing after 429s. Retry after `Retry-After` seconds, backing off exponentially. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request headers are larger than the server accepts */
            431: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected error; the message quotes the request id (also in `X-Request-Id`) */
            500: {
                headers: {
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "RateLimit-Policy"?: string;
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A dependency (the database or the rate-limit store) is unavailable; retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "RateLimit-Policy"?: string;
                    "Retry-After": components["headers"]["Retry-After"];
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listInventoryChanges: {
        parameters: {
            query?: {
                /** @description An opaque cursor from `Link` or `X-Changes-Cursor`: only changes after it. Without it: from the oldest kept change. */
                after?: string;
                /** @description At most this many changes */
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The next changes */
            200: {
                headers: {
                    /** @description `no-store`: the newest page grows as changes are made; follow `Link` instead */
                    "Cache-Control": "no-store";
                    /** @description The next page: `</v1/inventory/changes?after=<cursor>&limit=<n>>; rel="next"`, on every page, also an empty one */
                    Link: string;
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["InventoryChange"][];
                };
            };
            /** @description The request is malformed: `Authorization` is sent more than once, or its chunked body is broken */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No usable API key: none was sent, it was sent without the `Bearer` scheme, it belongs to another environment (by its prefix), or it is unknown or revoked. The message says which, except that an unknown key and a revoked one are told the same thing. See `WWW-Authenticate`. */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The client sent its request headers or its body too slowly (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS); the connection is closed */
            408: {
                headers: {
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "RateLimit-Policy"?: string;
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The operation has passed its sunset date and is no longer served, or a change cursor is older than the kept history */
            410: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The rate limit is exceeded, or the key is temporarily banned for continuing after 429s. Retry after `Retry-After` seconds, backing off exponentially. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request headers are larger than the server accepts */
            431: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected error; the message quotes the request id (also in `X-Request-Id`) */
            500: {
                headers: {
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "RateLimit-Policy"?: string;
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A dependency (the database or the rate-limit store) is unavailable; retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "RateLimit-Policy"?: string;
                    "Retry-After": components["headers"]["Retry-After"];
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getPetById: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `ETag` of an answer the client holds: while it is current, the answer is 304 without a body. */
                "If-None-Match"?: string;
            };
            path: {
                /** @description Identifier of the pet: decimal digits, 1 to 9223372036854775807 */
                petId: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The pet */
            200: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    /** @description A weak validator of this answer: it changes whenever the answer does */
                    ETag: string;
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Sunset: components["headers"]["Sunset"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Pet"];
                };
            };
            /** @description Not Modified: the answer still matches `If-None-Match`; no body */
            304: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    /** @description A weak validator of this answer: it changes whenever the answer does */
                    ETag: string;
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Sunset: components["headers"]["Sunset"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description `petId` is not an integer from 1 to 9223372036854775807, or `Authorization` is sent more than once */
            400: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Sunset: components["headers"]["Sunset"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No usable API key: none was sent, it was sent without the `Bearer` scheme, it belongs to another environment (by its prefix), or it is unknown or revoked. The message says which, except that an unknown key and a revoked one are told the same thing. See `WWW-Authenticate`. */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No pet has this `petId` */
            404: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Sunset: components["headers"]["Sunset"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The client sent its request headers or its body too slowly (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS); the connection is closed */
            408: {
                headers: {
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "RateLimit-Policy"?: string;
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The operation has passed its sunset date and is no longer served, or a change cursor is older than the kept history */
            410: {
                headers: {
                    Deprecation: components["headers"]["Deprecation"];
                    Link: components["headers"]["Link"];
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    Sunset: components["headers"]["Sunset"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The rate limit is exceeded, or the key is temporarily banned for continuing after 429s. Retry after `Retry-After` seconds, backing off exponentially. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request headers are larger than the server accepts */
            431: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected error; the message quotes the request id (also in `X-Request-Id`) */
            500: {
                headers: {
                    /** @description When the operation was deprecated, as `@<Unix seconds>` (RFC 9745). Absent when the failure came before the operation was reached. */
                    Deprecation?: string;
                    /** @description Documentation of the deprecation (`rel="deprecation"`) and of the sunset (`rel="sunset"`). Absent when the failure came before the operation was reached. */
                    Link?: string;
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "RateLimit-Policy"?: string;
                    /** @description When the operation stops being served, as an HTTP date (RFC 8594). Absent when the failure came before the operation was reached. */
                    Sunset?: string;
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A dependency (the database or the rate-limit store) is unavailable; retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description When the operation was deprecated, as `@<Unix seconds>` (RFC 9745). Absent when the failure came before the operation was reached. */
                    Deprecation?: string;
                    /** @description Documentation of the deprecation (`rel="deprecation"`) and of the sunset (`rel="sunset"`). Absent when the failure came before the operation was reached. */
                    Link?: string;
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "RateLimit-Policy"?: string;
                    "Retry-After": components["headers"]["Retry-After"];
                    /** @description When the operation stops being served, as an HTTP date (RFC 8594). Absent when the failure came before the operation was reached. */
                    Sunset?: string;
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getRateLimit: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The caller's rate-limit standing */
            200: {
                headers: {
                    /** @description `no-store`: the standing changes with every counted request and with time */
                    "Cache-Control": "no-store";
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RateLimitStatus"];
                };
            };
            /** @description The request is malformed: `Authorization` is sent more than once, or its chunked body is broken */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No usable API key: none was sent, it was sent without the `Bearer` scheme, it belongs to another environment (by its prefix), or it is unknown or revoked. The message says which, except that an unknown key and a revoked one are told the same thing. See `WWW-Authenticate`. */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The client sent its request headers or its body too slowly (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS); the connection is closed */
            408: {
                headers: {
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "RateLimit-Policy"?: string;
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The rate limit is exceeded, or the key is temporarily banned for continuing after 429s. Retry after `Retry-After` seconds, backing off exponentially. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request headers are larger than the server accepts */
            431: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected error; the message quotes the request id (also in `X-Request-Id`) */
            500: {
                headers: {
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "RateLimit-Policy"?: string;
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A dependency (the database or the rate-limit store) is unavailable; retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "RateLimit-Policy"?: string;
                    "Retry-After": components["headers"]["Retry-After"];
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listOrders: {
        parameters: {
            query?: never;
            header?: {
                /** @description The `ETag` of an answer the client holds: while it is current, the answer is 304 without a body. */
                "If-None-Match"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The orders */
            200: {
                headers: {
                    /** @description A weak validator of this answer: it changes whenever the answer does */
                    ETag: string;
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Order"][];
                };
            };
            /** @description Not Modified: the answer still matches `If-None-Match`; no body */
            304: {
                headers: {
                    /** @description A weak validator of this answer: it changes whenever the answer does */
                    ETag: string;
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description The request is malformed: `Authorization` is sent more than once, or its chunked body is broken */
            400: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description No usable API key: none was sent, it was sent without the `Bearer` scheme, it belongs to another environment (by its prefix), or it is unknown or revoked. The message says which, except that an unknown key and a revoked one are told the same thing. See `WWW-Authenticate`. */
            401: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "WWW-Authenticate": components["headers"]["WWW-Authenticate"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The client sent its request headers or its body too slowly (HTTP_HEADERS_TIMEOUT_MS, HTTP_REQUEST_TIMEOUT_MS); the connection is closed */
            408: {
                headers: {
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "RateLimit-Policy"?: string;
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Sent when the body came too slowly (the request was counted); absent when the headers did. */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The rate limit is exceeded, or the key is temporarily banned for continuing after 429s. Retry after `Retry-After` seconds, backing off exponentially. */
            429: {
                headers: {
                    RateLimit: components["headers"]["RateLimit"];
                    "RateLimit-Policy": components["headers"]["RateLimit-Policy"];
                    "Retry-After": components["headers"]["Retry-After"];
                    "X-RateLimit-Limit": components["headers"]["X-RateLimit-Limit"];
                    "X-RateLimit-Remaining": components["headers"]["X-RateLimit-Remaining"];
                    "X-RateLimit-Reset": components["headers"]["X-RateLimit-Reset"];
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description The request headers are larger than the server accepts */
            431: {
                headers: {
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description An unexpected error; the message quotes the request id (also in `X-Request-Id`) */
            500: {
                headers: {
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "RateLimit-Policy"?: string;
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description A dependency (the database or the rate-limit store) is unavailable; retry after `Retry-After` seconds */
            503: {
                headers: {
                    /** @description Every window's remaining quota and seconds to reset, e.g. `"minute";r=59;t=60, "day";r=999;t=43200` (draft-ietf-httpapi-ratelimit-headers). Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    RateLimit?: string;
                    /** @description Every window's quota and length in seconds, e.g. `"minute";q=60;w=60, "day";q=1000;w=86400`. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "RateLimit-Policy"?: string;
                    "Retry-After": components["headers"]["Retry-After"];
                    /** @description Requests allowed in the window (minute or UTC day) with the least remaining. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Limit"?: number;
                    /** @description Requests left in that window, this one counted. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Remaining"?: number;
                    /** @description When that window resets, in Unix seconds. Absent when the failure came before the rate limiter counted the request, or from the rate-limit store itself (`RateLimit-Policy` is still sent then). */
                    "X-RateLimit-Reset"?: number;
                    "X-Request-Id": components["headers"]["X-Request-Id"];
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}

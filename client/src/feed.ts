import type { CallOptions, Transport } from './transport.js';
import type { InventoryChange } from './types.js';

export interface ChangesOptions extends CallOptions {
  /** The cursor to continue from (a `cursor` stored earlier, or `X-Changes-Cursor` of a listing); omitted: from the oldest change kept. */
  after?: string;
  /** Changes per page, 1..1000 (the service's default is 100). */
  limit?: number;
}

/** One answer of the change feed. */
export interface ChangePage {
  changes: InventoryChange[];
  /** The cursor of the next page (`Link rel="next"`): store it to continue from here. */
  next: string | undefined;
}

/** The `rel="next"` target of a `Link` header (RFC 8288). */
export function nextLink(header: string | null): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(/,(?=\s*<)/)) {
    const match = /^\s*<([^>]*)>(.*)$/.exec(part);
    if (match && /;\s*rel\s*=\s*"?(?:[^";]*\s)?next(?:\s[^";]*)?"?\s*(?:;|$)/i.test(match[2]))
      return match[1];
  }
  return undefined;
}

function cursorOf(target: string): string | undefined {
  return new URL(target, 'http://link.invalid').searchParams.get('after') ?? undefined;
}

/**
 * The change feed from a cursor, oldest first. Iterating it fetches page after page, following
 * `Link rel="next"`, and ends once a page comes back empty (caught up); iterate it again later to
 * continue. `cursor` is where the feed stands, and moves to a page's `next` as that page's last
 * change is handed out: storing it after handling each change, and resuming with it as `after`,
 * never misses and never repeats a change.
 */
export class ChangeFeed implements AsyncIterable<InventoryChange> {
  private position: string | undefined;
  /** The `next` link to fetch, once one has been seen: the service's own, followed as given. */
  private target: string | undefined;

  constructor(
    private readonly transport: Transport,
    private readonly path: string,
    private readonly options: ChangesOptions = {},
  ) {
    this.position = options.after;
  }

  /** The cursor to store: where the feed continues. */
  get cursor(): string | undefined {
    return this.position;
  }

  /** Fetches the next page and moves `cursor` past it: the caller takes the whole page. */
  async nextPage(): Promise<ChangePage> {
    const page = await this.fetchPage();
    this.advance(page);
    return { changes: page.changes, next: page.next };
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<InventoryChange> {
    for (;;) {
      const page = await this.fetchPage();
      const { changes } = page;
      for (let i = 0; i < changes.length; i++) {
        if (i === changes.length - 1) this.advance(page);
        yield changes[i];
      }
      if (changes.length === 0) {
        this.advance(page);
        return;
      }
      if (page.next === undefined) return;
    }
  }

  private advance(page: ChangePage & { link?: string }): void {
    if (page.link === undefined) return;
    this.target = page.link;
    this.position = page.next;
  }

  private async fetchPage(): Promise<ChangePage & { link?: string }> {
    const { data, headers } = await this.transport.send<InventoryChange[]>({
      method: 'GET',
      path: this.target ?? this.path,
      query: this.target ? {} : { after: this.position, limit: this.options.limit },
      signal: this.options.signal,
    });
    const link = nextLink(headers.get('link'));
    return {
      changes: data ?? [],
      next: link === undefined ? undefined : cursorOf(link),
      link,
    };
  }
}

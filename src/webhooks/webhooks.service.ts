import { Injectable } from '@nestjs/common';
import { AppConfig } from '../config/app-config.js';
import { checkWebhookUrl } from './address-policy.js';
import { WebhookClock } from './webhook-clock.js';
import { type DeliveryRow, type EndpointRow, WebhookRepository } from './webhook.repository.js';
import { newSecret } from './signature.js';

export class WebhookNotFoundError extends Error {
  constructor(id: number) {
    super(`no webhook endpoint with id ${id}`);
    this.name = 'WebhookNotFoundError';
  }
}

export class CursorTooOldError extends Error {
  constructor() {
    super('the cursor is older than the kept change history (CHANGES_RETENTION_DAYS)');
    this.name = 'CursorTooOldError';
  }
}

@Injectable()
export class WebhooksService {
  constructor(
    private readonly config: AppConfig,
    private readonly repository: WebhookRepository,
    private readonly clock: WebhookClock,
  ) {}

  async add(url: string, description?: string): Promise<{ endpoint: EndpointRow; secret: string }> {
    const { allowHttp, allowPrivate, allowLoopback } = this.config.webhooks;
    const checked = await checkWebhookUrl(url, { allowHttp, allowPrivate, allowLoopback });
    const secret = newSecret();
    const endpoint = await this.repository.insert({
      url: checked.href,
      description: description ?? null,
      secret,
      cursor: await this.repository.feedHead(),
      now: this.clock.now(),
    });
    return { endpoint, secret };
  }

  list(): Promise<EndpointRow[]> {
    return this.repository.list();
  }

  async get(id: number): Promise<EndpointRow> {
    const endpoint = await this.repository.find(id);
    if (!endpoint) throw new WebhookNotFoundError(id);
    return endpoint;
  }

  async remove(id: number): Promise<void> {
    if (!(await this.repository.remove(id))) throw new WebhookNotFoundError(id);
  }

  async enable(id: number): Promise<EndpointRow> {
    if (!(await this.repository.enable(id))) throw new WebhookNotFoundError(id);
    return this.get(id);
  }

  async rollSecret(
    id: number,
    graceMs: number,
  ): Promise<{ secret: string; previousUntil: number }> {
    const secret = newSecret();
    const previousUntil = this.clock.now() + graceMs;
    if (!(await this.repository.rollSecret(id, secret, previousUntil)))
      throw new WebhookNotFoundError(id);
    return { secret, previousUntil };
  }

  async deliveries(id: number, limit: number): Promise<DeliveryRow[]> {
    await this.get(id);
    return this.repository.deliveries(id, limit);
  }

  async replay(id: number, position: bigint): Promise<EndpointRow> {
    if (position < (await this.repository.prunedThrough())) throw new CursorTooOldError();
    if (!(await this.repository.replay(id, position))) throw new WebhookNotFoundError(id);
    return this.get(id);
  }
}

import { Injectable } from '@nestjs/common';
import type { Order } from './dto/order.dto.js';
import { OrdersRepository, type OrderRow } from './orders.repository.js';

/** A stored timestamp (UTC, without a zone: "2026-12-01 09:30:00[.000]") as ISO 8601. */
export function utcIso(text: string): string {
  return new Date(`${text.replace(' ', 'T').replace(/Z$/i, '')}Z`).toISOString();
}

export function toOrder(row: OrderRow): Order {
  return {
    id: BigInt(row.id),
    petId: BigInt(row.petId),
    quantity: Number(row.quantity),
    status: row.status,
    // The contract's shipDate is optional: absent, not null, until the order is scheduled.
    ...(row.shipDate === null ? {} : { shipDate: utcIso(row.shipDate) }),
    complete: row.complete === true || row.complete === 1,
  };
}

@Injectable()
export class OrdersService {
  constructor(private readonly repository: OrdersRepository) {}

  async listOrders(): Promise<Order[]> {
    return (await this.repository.listOrders()).map(toOrder);
  }
}

import type { ImportRow } from '../inventory/inventory-row.js';
import type { OrderImportRow } from '../orders/orders.repository.js';

/** The development demo catalogue: a dozen pets, one id beyond 2^53 to show int64 exactness. */
export const DEMO_PETS: ImportRow[] = [
  { petId: 1n, name: 'Rex', status: 'available', quantity: 12 },
  { petId: 2n, name: 'Whiskers', status: 'available', quantity: 7 },
  { petId: 3n, name: 'Bubbles', status: 'pending', quantity: 3 },
  { petId: 4n, name: 'Polly', status: 'sold', quantity: 0 },
  { petId: 5n, name: 'Nibbles', status: 'available', quantity: 25 },
  { petId: 6n, name: 'Shelly', status: 'available', quantity: 4 },
  { petId: 7n, name: 'Goldie', status: 'available', quantity: 40 },
  { petId: 8n, name: 'Thumper', status: 'pending', quantity: 2 },
  { petId: 9n, name: 'Spike', status: 'sold', quantity: 0 },
  { petId: 10n, name: 'Luna', status: 'available', quantity: 9 },
  { petId: 11n, name: 'Kiwi', status: 'available', quantity: 15 },
  { petId: 9007199254740993n, name: 'Big Ben', status: 'available', quantity: 1 },
];

export const DEMO_ORDERS: OrderImportRow[] = [
  {
    id: 1001n,
    petId: 1n,
    quantity: 2,
    status: 'delivered',
    shipDate: new Date('2026-06-02T10:00:00Z'),
    complete: true,
  },
  {
    id: 1002n,
    petId: 3n,
    quantity: 1,
    status: 'approved',
    shipDate: new Date('2026-12-01T09:30:00Z'),
    complete: false,
  },
  { id: 1003n, petId: 5n, quantity: 5, status: 'placed', shipDate: null, complete: false },
  {
    id: 1004n,
    petId: 9007199254740993n,
    quantity: 1,
    status: 'placed',
    shipDate: null,
    complete: false,
  },
];

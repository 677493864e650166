import type { ImportRow } from '../../inventory/inventory.repository.js';

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

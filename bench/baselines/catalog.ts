import { readFileSync } from 'node:fs';

export interface CatalogItem {
  petId: number;
  quantity: number;
  status: 'available' | 'pending' | 'sold';
  available: number;
}

/** The bench catalogue file (the same one imported into the service), as the service lists it. */
export function loadCatalog(): CatalogItem[] {
  const file = process.env.BENCH_CATALOG;
  if (!file) throw new Error('BENCH_CATALOG must name the catalogue file');
  const rows = JSON.parse(readFileSync(file, 'utf8')) as CatalogItem[];
  // No holds in the bench's catalogue: every unit is available.
  return rows
    .map(({ petId, quantity, status }) => ({ petId, quantity, status, available: quantity }))
    .sort((a, b) => a.petId - b.petId);
}

export function listenOptions(): { port: number; host: string } {
  return { port: Number(process.env.PORT ?? 0), host: process.env.HOST ?? '127.0.0.1' };
}

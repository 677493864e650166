export const ORDER_STATUSES = ['placed', 'approved', 'delivered'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

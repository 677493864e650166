import { Controller, Get } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ApiRevalidation, ApiStability, WEAK_ETAG_HEADER } from '../openapi/api-docs.decorators.js';
import { Order } from './dto/order.dto.js';
import { OrdersService } from './orders.service.js';

@ApiTags('store')
@Controller('store/orders')
export class OrdersController {
  constructor(private readonly orders: OrdersService) {}

  @Get()
  @ApiOperation({
    summary: 'List orders',
    description: 'Every order placed with the store, by ascending id.',
  })
  @ApiStability('experimental')
  @ApiOkResponse({ type: [Order], description: 'The orders', headers: WEAK_ETAG_HEADER })
  @ApiRevalidation()
  listOrders(): Promise<Order[]> {
    return this.orders.listOrders();
  }
}

import 'reflect-metadata';
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  type ArgumentsHost,
  BadRequestException,
  Body,
  type CanActivate,
  Catch,
  Controller,
  createParamDecorator,
  type ExceptionFilter,
  type ExecutionContext,
  Get,
  HttpException,
  HttpStatus,
  Injectable,
  Logger,
  Module,
  NotFoundException,
  Param,
  ParseIntPipe,
  Patch,
  UnauthorizedException,
  ValidationPipe,
} from '@nestjs/common';
import { APP_FILTER, APP_GUARD, APP_PIPE, NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { ThrottlerGuard, ThrottlerModule } from '@nestjs/throttler';
import { InjectRepository, TypeOrmModule } from '@nestjs/typeorm';
import { IsIn, IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import type { Request, Response } from 'express';
import {
  Column,
  CreateDateColumn,
  DataSource,
  Entity,
  PrimaryColumn,
  PrimaryGeneratedColumn,
  Repository,
  UpdateDateColumn,
} from 'typeorm';
import { listenOptions } from './catalog.js';

/*
 * The peer: `listInventory` and `updateInventory` written the way the NestJS documentation
 * teaches, with nothing tuned. Express; TypeORM repositories on better-sqlite3; a class-validator
 * DTO through the global ValidationPipe; a global guard looking the API key up by its SHA-256
 * hash on every request; ThrottlerGuard with per-plan limits on its in-memory storage; one global
 * exception filter answering `{code, message, status}`. It keeps its own SQLite file, created by
 * `synchronize` and filled at start from the bench catalogue, holding one key (BENCH_API_KEY,
 * stored as its hash) with the limits of the service's bench key.
 */

// ---- entities -------------------------------------------------------------------------------

type PetStatus = 'available' | 'pending' | 'sold';
const REASONS = ['received', 'returned', 'correction', 'damaged', 'other'] as const;
type Reason = (typeof REASONS)[number];
type Plan = 'free' | 'pro' | 'business' | 'enterprise';

@Entity('pets')
class Pet {
  @PrimaryColumn({ type: 'integer' })
  id!: number;

  @Column({ type: 'varchar', length: 200, nullable: true })
  name!: string | null;

  @Column({ type: 'varchar', length: 16 })
  status!: PetStatus;

  @Column({ type: 'integer' })
  quantity!: number;

  @UpdateDateColumn({ name: 'updated_at' })
  updatedAt!: Date;
}

@Entity('api_keys')
class ApiKey {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'varchar', length: 64, name: 'key_hash', unique: true })
  keyHash!: string;

  @Column({ type: 'varchar', length: 16 })
  plan!: Plan;

  @Column({ type: 'integer', name: 'per_minute', nullable: true })
  perMinute!: number | null;

  @Column({ type: 'integer', name: 'per_day', nullable: true })
  perDay!: number | null;

  @Column({ type: 'datetime', name: 'revoked_at', nullable: true })
  revokedAt!: Date | null;
}

@Entity('inventory_changes')
class InventoryChange {
  @PrimaryGeneratedColumn()
  id!: number;

  @Column({ type: 'integer', name: 'pet_id' })
  petId!: number;

  @Column({ type: 'integer', name: 'previous_quantity' })
  previousQuantity!: number;

  @Column({ type: 'integer' })
  quantity!: number;

  @Column({ type: 'varchar', length: 16, name: 'previous_status' })
  previousStatus!: PetStatus;

  @Column({ type: 'varchar', length: 16 })
  status!: PetStatus;

  @Column({ type: 'varchar', length: 16, nullable: true })
  reason!: Reason | null;

  @Column({ type: 'varchar', length: 255, nullable: true })
  reference!: string | null;

  @Column({ type: 'integer', name: 'api_key_id' })
  apiKeyId!: number;

  @CreateDateColumn({ name: 'changed_at' })
  changedAt!: Date;
}

// ---- DTOs -----------------------------------------------------------------------------------

class UpdateInventoryDto {
  @IsInt()
  @Min(0)
  @Max(2_147_483_647)
  quantity!: number;

  @IsOptional()
  @IsIn(REASONS)
  reason?: Reason;

  @IsOptional()
  @IsString()
  @Length(1, 255)
  reference?: string;
}

interface InventoryItemDto {
  petId: number;
  quantity: number;
  status: PetStatus;
  available: number;
}

const toItem = (pet: Pet): InventoryItemDto => ({
  petId: pet.id,
  quantity: pet.quantity,
  status: pet.status,
  // The peer keeps no holds: every unit is available.
  available: pet.quantity,
});

// ---- auth -----------------------------------------------------------------------------------

interface AuthenticatedRequest extends Request {
  apiKey?: ApiKey;
}

const hashKey = (raw: string) => createHash('sha256').update(raw).digest('hex');

@Injectable()
class ApiKeyGuard implements CanActivate {
  constructor(@InjectRepository(ApiKey) private readonly apiKeys: Repository<ApiKey>) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const [scheme, token] = request.headers.authorization?.split(' ') ?? [];
    if (scheme !== 'Bearer' || !token) throw new UnauthorizedException('Missing API key');
    const apiKey = await this.apiKeys.findOneBy({ keyHash: hashKey(token) });
    if (!apiKey || apiKey.revokedAt) throw new UnauthorizedException('Invalid API key');
    request.apiKey = apiKey;
    return true;
  }
}

const CurrentKey = createParamDecorator(
  (_: unknown, context: ExecutionContext) =>
    context.switchToHttp().getRequest<AuthenticatedRequest>().apiKey,
);

// ---- rate limits ----------------------------------------------------------------------------

const PLAN_LIMITS: Record<Exclude<Plan, 'enterprise'>, { perMinute: number; perDay: number }> = {
  free: { perMinute: 60, perDay: 1_000 },
  pro: { perMinute: 300, perDay: 10_000 },
  business: { perMinute: 1_000, perDay: 100_000 },
};

function limitsOf(context: ExecutionContext): { perMinute: number; perDay: number } {
  const { apiKey } = context.switchToHttp().getRequest<AuthenticatedRequest>();
  if (!apiKey) return PLAN_LIMITS.free;
  const plan = apiKey.plan === 'enterprise' ? undefined : PLAN_LIMITS[apiKey.plan];
  return {
    perMinute: apiKey.perMinute ?? plan?.perMinute ?? 0,
    perDay: apiKey.perDay ?? plan?.perDay ?? 0,
  };
}

@Injectable()
class PlanThrottlerGuard extends ThrottlerGuard {
  protected override async getTracker(req: AuthenticatedRequest): Promise<string> {
    return req.apiKey ? `key:${req.apiKey.id}` : (req.ip ?? 'unknown');
  }
}

// ---- errors ---------------------------------------------------------------------------------

const CODES: Record<number, string> = {
  400: 'validation_failed',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  413: 'payload_too_large',
  415: 'unsupported_media_type',
  429: 'rate_limit_exceeded',
};

@Catch()
class AllExceptionsFilter implements ExceptionFilter {
  private readonly logger = new Logger(AllExceptionsFilter.name);

  catch(exception: unknown, host: ArgumentsHost): void {
    const response = host.switchToHttp().getResponse<Response>();
    if (exception instanceof HttpException) {
      const status = exception.getStatus();
      const body = exception.getResponse();
      const message =
        typeof body === 'string'
          ? body
          : Array.isArray((body as { message?: unknown }).message)
            ? (body as { message: string[] }).message.join('; ')
            : String((body as { message?: unknown }).message ?? exception.message);
      response.status(status).json({ code: CODES[status] ?? 'error', message, status });
      return;
    }
    this.logger.error(exception);
    const status = HttpStatus.INTERNAL_SERVER_ERROR;
    response.status(status).json({ code: 'internal_error', message: 'Internal error', status });
  }
}

// ---- inventory ------------------------------------------------------------------------------

@Injectable()
class InventoryService {
  constructor(
    @InjectRepository(Pet) private readonly pets: Repository<Pet>,
    private readonly dataSource: DataSource,
  ) {}

  async findAll(): Promise<InventoryItemDto[]> {
    const pets = await this.pets.find({ order: { id: 'ASC' } });
    return pets.map(toItem);
  }

  update(petId: number, dto: UpdateInventoryDto, apiKey: ApiKey): Promise<InventoryItemDto> {
    return this.dataSource.transaction(async (manager) => {
      const pet = await manager.findOneBy(Pet, { id: petId });
      if (!pet) throw new NotFoundException(`No pet ${petId} in the inventory`);
      const previousQuantity = pet.quantity;
      const previousStatus = pet.status;
      pet.quantity = dto.quantity;
      if (dto.quantity === 0) pet.status = 'sold';
      else if (pet.status === 'sold') pet.status = 'available';
      await manager.save(pet);
      await manager.save(
        manager.create(InventoryChange, {
          petId,
          previousQuantity,
          quantity: pet.quantity,
          previousStatus,
          status: pet.status,
          reason: dto.reason ?? null,
          reference: dto.reference ?? null,
          apiKeyId: apiKey.id,
        }),
      );
      return toItem(pet);
    });
  }
}

@Controller('v1/inventory')
class InventoryController {
  constructor(private readonly inventory: InventoryService) {}

  @Get()
  listInventory(): Promise<InventoryItemDto[]> {
    return this.inventory.findAll();
  }

  @Patch(':petId')
  updateInventory(
    @Param('petId', ParseIntPipe) petId: number,
    @Body() dto: UpdateInventoryDto,
    @CurrentKey() apiKey: ApiKey,
  ): Promise<InventoryItemDto> {
    return this.inventory.update(petId, dto, apiKey);
  }
}

// ---- the module -----------------------------------------------------------------------------

const database = process.env.BENCH_PEER_DATABASE;
if (!database) throw new Error('BENCH_PEER_DATABASE must name the SQLite file to create');

@Module({
  imports: [
    TypeOrmModule.forRoot({
      type: 'better-sqlite3',
      database,
      entities: [Pet, ApiKey, InventoryChange],
      synchronize: true,
      enableWAL: true,
    }),
    TypeOrmModule.forFeature([Pet, ApiKey]),
    ThrottlerModule.forRoot({
      throttlers: [
        { name: 'minute', ttl: 60_000, limit: (context) => limitsOf(context).perMinute },
        { name: 'day', ttl: 86_400_000, limit: (context) => limitsOf(context).perDay },
      ],
    }),
  ],
  controllers: [InventoryController],
  providers: [
    InventoryService,
    { provide: APP_GUARD, useClass: ApiKeyGuard },
    { provide: APP_GUARD, useClass: PlanThrottlerGuard },
    {
      provide: APP_PIPE,
      useValue: new ValidationPipe({
        whitelist: true,
        forbidNonWhitelisted: true,
        transform: true,
        exceptionFactory: (errors) =>
          new BadRequestException(
            errors.flatMap((error) => Object.values(error.constraints ?? {})).join('; '),
          ),
      }),
    },
    { provide: APP_FILTER, useClass: AllExceptionsFilter },
  ],
})
class PeerModule {}

// ---- bootstrap ------------------------------------------------------------------------------

/** The bench's catalogue and key, loaded before the port opens: fixture, not measured path. */
async function seed(dataSource: DataSource): Promise<void> {
  const file = process.env.BENCH_CATALOG;
  const rawKey = process.env.BENCH_API_KEY;
  if (!file || !rawKey) throw new Error('BENCH_CATALOG and BENCH_API_KEY must be set');
  const rows = JSON.parse(readFileSync(file, 'utf8')) as {
    petId: number;
    name?: string;
    quantity: number;
    status: PetStatus;
  }[];
  await dataSource.transaction(async (manager) => {
    await manager.clear(Pet);
    await manager.clear(ApiKey);
    await manager.save(
      Pet,
      rows.map(({ petId, name, quantity, status }) => ({
        id: petId,
        name: name ?? null,
        quantity,
        status,
      })),
      { chunk: 200 },
    );
    await manager.save(ApiKey, {
      keyHash: hashKey(rawKey),
      plan: 'enterprise',
      perMinute: 2_000_000_000,
      perDay: 2_000_000_000,
    });
  });
}

const app = await NestFactory.create<NestExpressApplication>(PeerModule);
await seed(app.get(DataSource));
app.enableShutdownHooks();
const { port, host } = listenOptions();
await app.listen(port, host);

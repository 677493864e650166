import { Module } from '@nestjs/common';
import { typeOrmRoot } from './typeorm-root.js';

@Module({ imports: [typeOrmRoot()] })
export class DatabaseModule {}

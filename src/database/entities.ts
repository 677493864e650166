import { ApiKeyEntity } from '../auth/api-key.entity.js';
import { PetEntity } from '../inventory/pet.entity.js';

export const ENTITIES = [PetEntity, ApiKeyEntity];

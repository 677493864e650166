import { CallHandler, ExecutionContext, Injectable, Logger, NestInterceptor } from '@nestjs/common';
import type { Response } from 'express';
import type { Observable } from 'rxjs';
import type { IdentifiedRequest } from '../auth/principal.js';
import { ApiError } from '../common/errors/api-error.js';
import { AppConfig, PETS_DEPRECATED_AT } from '../config/app-config.js';
import { operationDocsUrl } from '../openapi/openapi.document.js';

export interface DeprecationPolicy {
  deprecatedAt: Date;
  sunset: Date;
  docsUrl: string;
}

export function deprecationHeaders(policy: DeprecationPolicy): Record<string, string> {
  return {
    // RFC 9745: a Structured Field Date, i.e. "@" and Unix seconds.
    Deprecation: `@${Math.floor(policy.deprecatedAt.getTime() / 1000)}`,
    // RFC 8594: an HTTP-date in IMF-fixdate form, which toUTCString() writes.
    Sunset: policy.sunset.toUTCString(),
    Link: [
      `<${policy.docsUrl}>; rel="deprecation"; type="text/html"`,
      `<${policy.docsUrl}>; rel="sunset"; type="text/html"`,
    ].join(', '),
  };
}

// Logs each call with the calling key, so operators can see who still depends on it.
@Injectable()
export class PetsDeprecationInterceptor implements NestInterceptor {
  private readonly logger = new Logger('Deprecation');
  private readonly policy: DeprecationPolicy;
  private readonly headers: Record<string, string>;

  constructor(config: AppConfig) {
    this.policy = {
      deprecatedAt: PETS_DEPRECATED_AT,
      sunset: config.pets.sunset,
      docsUrl: operationDocsUrl(config, 'pets', 'getPetById'),
    };
    this.headers = deprecationHeaders(this.policy);
  }

  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const req = http.getRequest<IdentifiedRequest>();
    const res = http.getResponse<Response>();
    res.set(this.headers);

    const gone = Date.now() >= this.policy.sunset.getTime();
    const principal = req.principal;
    this.logger.warn(
      {
        reqId: (req as { id?: unknown }).id,
        deprecatedOperation: 'getPetById',
        keyId: principal?.keyId,
        keyPrefix: principal?.keyPrefix,
        sunset: this.policy.sunset.toISOString(),
        gone,
      },
      `Deprecated operation GET /v1/pets/{petId} called by key ${principal?.keyId ?? 'unknown'}${gone ? ' after its sunset' : ''}`,
    );
    if (gone) {
      throw new ApiError(
        'gone',
        `GET /v1/pets/{petId} was retired on ${this.policy.sunset.toISOString().slice(0, 10)}; use GET /v1/inventory`,
        this.headers,
      );
    }
    return next.handle();
  }
}

import { Global, Injectable, Module } from '@nestjs/common';
import type { NextFunction, Request, Response } from 'express';

export interface RequestObserver {
  started?(req: Request, res: Response): void;
  finished?(req: Request, res: Response, elapsedMs: number): void;
}

// On Express itself: Nest's MiddlewareConsumer would add a path match and bookkeeping per request.
@Injectable()
export class RequestObservers {
  private readonly onStart: NonNullable<RequestObserver['started']>[] = [];
  private readonly onFinish: NonNullable<RequestObserver['finished']>[] = [];

  add(observer: RequestObserver): void {
    if (observer.started) this.onStart.push(observer.started.bind(observer));
    if (observer.finished) this.onFinish.push(observer.finished.bind(observer));
  }

  readonly middleware = (req: Request, res: Response, next: NextFunction): void => {
    for (let i = 0; i < this.onStart.length; i++) this.onStart[i](req, res);
    if (this.onFinish.length > 0) {
      const started = performance.now();
      // 'close' also comes for a response the client abandoned ('finish' would miss those).
      res.on('close', () => {
        const elapsedMs = performance.now() - started;
        for (let i = 0; i < this.onFinish.length; i++) this.onFinish[i](req, res, elapsedMs);
      });
    }
    next();
  };
}

@Global()
@Module({ providers: [RequestObservers], exports: [RequestObservers] })
export class RequestObserversModule {}

export { ApiExpressAdapter } from './http-adapter.js';
export { IgnoresBody, JsonBodyGuard, readJsonBody } from './json-body.guard.js';
export { overrideResponseJson } from './express-api.js';
export { RawJson } from './json.js';
export {
  RequestObservers,
  RequestObserversModule,
  type RequestObserver,
} from './request-observers.js';
export { applySecurity, serverTimeouts } from './security.js';

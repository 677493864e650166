export { RawJson } from '../../platform/http/index.js';

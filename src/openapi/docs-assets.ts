import type { NextFunction, Request, Response } from 'express';

// swagger-ui-dist also holds its package.json, README, source maps and a demo page: they reveal
// versions and serve nothing a reader needs.
const DOCS_FILES = new Set([
  '/',
  '/swagger-ui.css',
  '/swagger-ui-bundle.js',
  '/swagger-ui-standalone-preset.js',
  '/swagger-ui-init.js',
  '/favicon-32x32.png',
  '/favicon-16x16.png',
]);

export function docsAssetsOnly(req: Request, res: Response, next: NextFunction): void {
  if (DOCS_FILES.has(req.path)) {
    next();
    return;
  }
  res
    .status(404)
    .type('application/json')
    .send(
      JSON.stringify({
        code: 'not_found',
        message: `No route for ${req.method} ${req.originalUrl.split('?')[0]}`,
        status: 404,
      }),
    );
}

import 'reflect-metadata';

import { runService } from '@cms/service-kit';

// `main.js openapi` prints the OpenAPI document and starts nothing; anything else runs the service.
if (process.argv[2] === 'openapi') {
  void (async () => {
    const [{ GATEWAY_SERVICE }, { printOpenApiDocument }] = await Promise.all([
      import('./gateway.service'),
      import('./openapi/openapi.document'),
    ]);
    await printOpenApiDocument(GATEWAY_SERVICE);
  })().catch((error: unknown) => {
    process.stderr.write(`openapi: ${String(error)}\n`);
    process.exit(1);
  });
} else {
  void runService(async () => (await import('./gateway.service')).GATEWAY_SERVICE, 'gateway');
}

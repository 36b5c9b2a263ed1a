/**
 * Loaded with `node --import` before a tool that reads TypeScript through the compiler's JavaScript
 * API, which TypeScript 7 no longer ships (it is a native binary; the API returns in 7.1):
 * dependency-cruiser (`npm run layers`) and openapi-typescript (the generated-client test of
 * `src/http/openapi-client.test.ts`). The project type-checks with TypeScript 7 (`typescript`) and keeps
 * TypeScript 6 beside it as `typescript6` for those tools alone: this maps their imports of `typescript`
 * there, through Node's documented module hooks. Nothing else sees it.
 */
import { registerHooks } from 'node:module';

const TOOLS = ['/node_modules/dependency-cruiser/', '/node_modules/openapi-typescript/'];

registerHooks({
  resolve(specifier, context, nextResolve) {
    const fromTool = TOOLS.some((tool) => context.parentURL?.includes(tool) ?? false);
    if (fromTool && (specifier === 'typescript' || specifier.startsWith('typescript/'))) {
      return nextResolve(`typescript6${specifier.slice('typescript'.length)}`, context);
    }
    return nextResolve(specifier, context);
  },
});

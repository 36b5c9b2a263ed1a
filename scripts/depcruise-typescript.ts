/**
 * Loaded with `node --import` before dependency-cruiser (`npm run layers`). dependency-cruiser reads
 * TypeScript through the compiler's JavaScript API, which TypeScript 7 no longer ships (it is a native
 * binary; the API returns in 7.1). The project type-checks with TypeScript 7 (`typescript`) and keeps
 * TypeScript 6 beside it as `typescript6` for dependency-cruiser alone: this maps dependency-cruiser's
 * imports of `typescript` there, through Node's documented module hooks. Nothing else sees it.
 */
import { registerHooks } from 'node:module';

registerHooks({
  resolve(specifier, context, nextResolve) {
    const fromCruiser = context.parentURL?.includes('/node_modules/dependency-cruiser/') ?? false;
    if (fromCruiser && (specifier === 'typescript' || specifier.startsWith('typescript/'))) {
      return nextResolve(`typescript6${specifier.slice('typescript'.length)}`, context);
    }
    return nextResolve(specifier, context);
  },
});

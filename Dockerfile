# syntax=docker/dockerfile:1
# Production image: the server runs bundled (scripts/build-server.ts, esbuild: fewer modules to load,
# a faster start and less memory, README "Start-up and idle memory"), built in the runtime stage from
# the sources it copies; the commands (migrations, backup, health check) run the TypeScript sources
# directly (type stripping). The deps stage only installs production dependencies from the lockfile.
# Node is the lockfile's exact version (the `node` devDependency, which `npm test` runs on); a test
# (deploy/image.test.ts) holds both FROM lines to it.
#
# Build argument WITH_CHROMIUM (default true): Chromium (~400 MB) drives local Lighthouse runs when no
# PAGESPEED_API_KEY is set. `--build-arg WITH_CHROMIUM=false` gives a slim image for operators who use
# PageSpeed Insights (PAGESPEED_API_KEY); without either, page-speed analysis is reported unavailable.

FROM node:24.21.0-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

FROM node:24.21.0-bookworm-slim AS runtime
ARG WITH_CHROMIUM=true
RUN case "$WITH_CHROMIUM" in \
      true) browser=chromium ;; \
      false) browser= ;; \
      *) echo "WITH_CHROMIUM must be true or false, not '$WITH_CHROMIUM'" >&2; exit 1 ;; \
    esac \
  && apt-get update \
  && apt-get install -y --no-install-recommends tini $browser \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    PORT=8787 \
    HOST=0.0.0.0 \
    CHROME_PATH=/usr/bin/chromium \
    DATABASE_URL=sqlite:/data/app.db
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
# Only what the service runs; .dockerignore keeps tests, stand-ins and fixtures out of these folders.
COPY package.json package-lock.json ./
COPY src ./src
COPY scripts ./scripts
COPY corpus ./corpus
# The bundle reads files beside its sources (src/ stays) and the packages it leaves out from node_modules.
RUN node scripts/build-server.ts
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 8787
VOLUME ["/data"]
HEALTHCHECK --interval=15s --timeout=5s --start-period=10s --retries=3 CMD ["node", "scripts/healthcheck.ts"]
# tini forwards SIGTERM so the graceful shutdown in src/start.ts runs. The command is package.json's
# start script (deploy/image.test.ts holds them together).
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "dist/main.js"]

# syntax=docker/dockerfile:1
# Production image: Node 24 runs the TypeScript sources directly (type stripping), so there is no
# compile step; the build stage only installs production dependencies from the lockfile.

FROM node:24-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund

FROM node:24-bookworm-slim AS runtime
# Chromium drives local Lighthouse runs when no PAGESPEED_API_KEY is set; drop it to save ~400 MB
# if page-speed analysis always goes to PageSpeed Insights.
RUN apt-get update \
  && apt-get install -y --no-install-recommends chromium tini \
  && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    PORT=8787 \
    HOST=0.0.0.0 \
    CHROME_PATH=/usr/bin/chromium \
    DATABASE_URL=sqlite:/data/app.db
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json package-lock.json ./
COPY src ./src
COPY scripts ./scripts
COPY corpus ./corpus
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 8787
VOLUME ["/data"]
HEALTHCHECK --interval=15s --timeout=5s --start-period=10s --retries=3 CMD ["node", "scripts/healthcheck.ts"]
# tini forwards SIGTERM so the graceful shutdown in src/main.ts runs.
ENTRYPOINT ["/usr/bin/tini", "--"]
CMD ["node", "src/main.ts"]

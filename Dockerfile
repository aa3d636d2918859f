# syntax=docker/dockerfile:1
# uc-mcp-server. Build: docker build -t uc-mcp-server .
# Run:   docker run -d --name uc-mcp -p 8443:8443 -v uc-mcp-data:/data --env-file .env uc-mcp-server
# All runtime state (secrets, clients, logs, backups, reports, profiles, schema cache) lives in the /data volume.
# Build from a signed tree: the release step runs `UPDATE_MANIFEST_KEY=<vendor key> node --import tsx
# scripts/update_manifest.ts` first. INTEGRITY_MODE=enforce (the default) loads no plugin bundle from an
# unsigned tree, and the check below refuses to build one. Licenses are bound to the host name: run the
# container with a stable --hostname.

FROM node:22-bookworm-slim AS deps
WORKDIR /app
COPY package.json package-lock.json ./
# Production dependencies only; native modules (bcrypt, ssh2) use the prebuilt binaries their packages ship.
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:22-bookworm-slim
# chromium: PDF export of reports (playwright-core drives the system browser, never a downloaded one).
# tini: a real PID 1 that forwards SIGTERM to node and reaps Chromium's children.
RUN apt-get update \
 && apt-get install -y --no-install-recommends chromium tini ca-certificates fonts-dejavu-core \
 && rm -rf /var/lib/apt/lists/*
ENV NODE_ENV=production \
    INTEGRITY_MODE=enforce \
    STATE_DIR=/data \
    SERVER_HOST=0.0.0.0 \
    SERVER_PORT=8443 \
    LOGGING_CONSOLE_ENABLED=1 \
    CHROMIUM_PATH=/usr/bin/chromium
WORKDIR /app
COPY --from=deps /app/node_modules ./node_modules
COPY package.json package-lock.json tsconfig.json ./
COPY kernel ./kernel
COPY plugins ./plugins
COPY profiles/_default ./profiles/_default
COPY manifests ./manifests
COPY scripts ./scripts
# Refuse to build an image whose shipped files are not covered by a valid signed manifest.
RUN node --import tsx scripts/update_manifest.ts --check
RUN groupadd --system --gid 10001 ucmcp \
 && useradd --system --uid 10001 --gid ucmcp --home-dir /data --shell /usr/sbin/nologin ucmcp \
 && mkdir -p /data && chown ucmcp:ucmcp /data && chmod 0700 /data
USER ucmcp
VOLUME ["/data"]
EXPOSE 8443
# Liveness over HTTPS every 30 s (functional spec: container health check period).
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 CMD ["node", "scripts/healthcheck.mjs"]
ENTRYPOINT ["/usr/bin/tini", "--"]
# tini forwards SIGTERM to the container entry, which stops the server cleanly and exits with it; while
# `docker exec ... scripts/backup_restore.ts --replace` runs, the entry outlives the server it stops so the
# restore can finish (then restart the container).
CMD ["node", "--import", "./kernel/loader/register.mjs", "kernel/container-entry.ts"]

# syntax=docker/dockerfile:1
# The web suite as one image (README 'Run in production'): built in one stage, run from a second that holds
# only what the server needs, as an unprivileged user. Build: docker build -t avp .
# Run: docker run -p 127.0.0.1:3000:3000 --env-file avp.env -v avp-data:/var/lib/avp avp

FROM node:24-bookworm-slim AS build
WORKDIR /app
# The desktop window's Electron binary is not part of the server.
ENV ELECTRON_SKIP_BINARY_DOWNLOAD=1
COPY package.json package-lock.json .npmrc ./
COPY shared/package.json shared/
COPY api/package.json api/
COPY web/package.json web/
COPY desktop/package.json desktop/
COPY test/package.json test/
COPY build/scripts/ build/scripts/
COPY api/node-flags.json api/
RUN npm ci --include-workspace-root --workspace @avp/shared --workspace @avp/api --workspace @avp/web
COPY . .
# The same build as `npm run build`: the shared core and the API compiled, the web app bundled and prerendered.
RUN npm run build

FROM node:24-bookworm-slim AS runtime
WORKDIR /app
ENV ELECTRON_SKIP_BINARY_DOWNLOAD=1
COPY --from=build /app/package.json /app/package-lock.json /app/.npmrc ./
COPY --from=build /app/shared/package.json shared/
COPY --from=build /app/api/package.json api/
COPY --from=build /app/web/package.json web/
COPY --from=build /app/desktop/package.json desktop/
COPY --from=build /app/test/package.json test/
COPY --from=build /app/build/scripts/ build/scripts/
COPY --from=build /app/api/node-flags.json api/
# Only the server's own dependencies (sqlite3 and sharp bring their prebuilt binaries).
RUN npm ci --omit=dev --workspace @avp/shared --workspace @avp/api && npm cache clean --force
COPY --from=build /app/shared/dist/ shared/dist/
COPY --from=build /app/api/dist/ api/dist/
COPY --from=build /app/web/dist/ web/dist/

# DATA_DIR holds the SQLite file (when DATABASE_URL is not set), local uploads, mail files and media.
RUN mkdir -p /var/lib/avp && chown node:node /var/lib/avp
VOLUME ["/var/lib/avp"]
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/var/lib/avp \
    LOG_FORMAT=json \
    SEED_DEMO=false
USER node
EXPOSE 3000

# Ready, not merely alive: the database answers, migrations are current, storage takes files, mail is set.
HEALTHCHECK --interval=30s --timeout=6s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/api/ready',{signal:AbortSignal.timeout(5000)}).then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]

# The same steps as `npm run start:production`, built already: refuse demo settings, migrate, serve.
# The launcher passes docker stop's SIGTERM on to the server, which finishes the requests in flight.
CMD ["node", "build/scripts/start-production.mjs", "--no-build"]

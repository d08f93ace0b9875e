# syntax=docker/dockerfile:1
# Ops Hub image: one image for the web process (default CMD) and the worker (compose overrides the command).

# ---- build: install everything, build the browser assets, then drop dev dependencies ----
FROM node:20-slim AS build
WORKDIR /app
ENV NPM_CONFIG_UPDATE_NOTIFIER=false NPM_CONFIG_FUND=false NPM_CONFIG_AUDIT=false
COPY package.json package-lock.json ./
RUN npm ci
COPY . .
# Writes static/build/ (hashed island chunks, boot.js, htmx, app.css, manifest.json).
RUN npm run build
# Runtime needs only "dependencies" (tsx, esbuild, drizzle-orm's migrators … are all there).
RUN npm prune --omit=dev

# ---- runtime ----
FROM node:20-slim
WORKDIR /app
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=3000 \
    DATA_DIR=/data \
    NPM_CONFIG_UPDATE_NOTIFIER=false
# Application files stay root-owned (read-only for the app); only /data is writable by `node`.
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/package.json ./package.json
COPY --from=build /app/tsconfig.json ./tsconfig.json
COPY --from=build /app/src ./src
COPY --from=build /app/islands ./islands
COPY --from=build /app/jobs ./jobs
COPY --from=build /app/drizzle ./drizzle
COPY --from=build /app/static ./static
RUN mkdir -p /data && chown node:node /data
USER node
EXPOSE 3000
# No curl in the slim image: Node's own fetch. The web process listens only after migrations have run.
HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||3000)+'/healthz').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
CMD ["node", "--import", "tsx", "src/main.ts"]

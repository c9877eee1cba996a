# One image recipe for every app: `docker build --build-arg APP=gateway .`
# NODE_IMAGE: where no registry is reachable, deploy/image/base-image.sh makes a stand-in from Debian's
# packages and the npm registry (deploy/image/README.md).
ARG NODE_IMAGE=node:24-bookworm-slim

# Build stage: all dependencies as the lockfile pins them, then the workspace compiled to dist/ and the dev
# dependencies dropped.
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json .npmrc ./
RUN npm install --no-audit --no-fund --loglevel=error
COPY tsconfig.base.json tsconfig.json .swcrc ./
COPY scripts/build.mjs scripts/build.mjs
COPY apps apps
COPY libs libs
RUN node scripts/build.mjs --no-typecheck \
 && npm prune --omit=dev --no-audit --no-fund --loglevel=error

# Runtime stage: production dependencies and compiled code only, as the unprivileged node user.
FROM ${NODE_IMAGE} AS runtime
ARG APP
ENV NODE_ENV=production APP=${APP}
WORKDIR /app
COPY --from=build --chown=node:node /app/package.json ./package.json
COPY --from=build --chown=node:node /app/node_modules ./node_modules
COPY --from=build --chown=node:node /app/dist ./dist
USER node
# Arguments after the image name go to the app (e.g. `topics create` for ops). With MEMORY_LIMIT_MIB (the
# container's limit, which deploy/k8s passes down), the heap stays within it: three quarters for the old
# generation, 16 MiB semi-spaces (nodeMemoryArgs in libs/config).
ENTRYPOINT ["/bin/sh", "-c", "test -n \"$APP\" && exec node ${MEMORY_LIMIT_MIB:+--max-old-space-size=$((MEMORY_LIMIT_MIB * 3 / 4)) --max-semi-space-size=16} dist/apps/$APP/src/main.js \"$@\"", "--"]

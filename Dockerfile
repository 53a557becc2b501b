# Request Sandbox: API, /rpc, the dashboard (/) and health on one port, with its own anvil chain.
# The dashboard's files come with dist/ (scripts/build.mjs copies and bundles them); HOST=0.0.0.0 below.
#   docker build -t request-sandbox .
#   docker run -p 8080:8080 request-sandbox                  options after the image name go to the sandbox:
#   docker run -p 8080:8080 request-sandbox --api-keys k1,k2  (the sandbox is the ENTRYPOINT)
# State across restarts: a named volume on /data (docs/docker.md); `npm run test:container` builds and checks this image.
# Debian-based Node image (anvil's binary is linked against glibc, so not Alpine); Node 26 is the current LTS.

FROM node:26-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts ./scripts
COPY src ./src
COPY fixtures ./fixtures
COPY scenarios ./scenarios
RUN node scripts/build.mjs

FROM node:26-slim
WORKDIR /app
ENV NODE_ENV=production HOST=0.0.0.0 PORT=8080
COPY package.json package-lock.json ./
# Runtime dependencies only; anvil's binary comes in its platform package (no install script needed). npm installs
# what the runtime never loads: TypeScript and its native compiler (an optional peer of abitype, through viem) and
# libsql's musl build beside the glibc one (its package names no libc): removed, then libsql is loaded once as a check.
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force \
  && rm -rf node_modules/typescript node_modules/@typescript node_modules/@libsql/*-musl* \
  && node -e "require('libsql')"
COPY --from=build /app/dist ./dist
COPY bin ./bin
COPY fixtures ./fixtures
COPY scenarios ./scenarios
# /llms.txt and the guides it links to (/guides/{file}) are read from docs/
COPY docs ./docs
EXPOSE 8080
# State kept across restarts with a named volume: docker run -v sandbox-data:/data -e SANDBOX_STATE_DIR=/data ...
# A new named volume takes this folder's owner (uid 1000); no VOLUME line, so a run without -v makes no anonymous volume.
RUN mkdir -p /data && chown node:node /data
HEALTHCHECK --interval=10s --timeout=3s --start-period=5s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8080)+'/__sandbox/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
USER node
# the sandbox is the entrypoint: `docker run IMAGE --flag` passes --flag to it (CMD holds no default arguments); Node's
# options are npm start's (docs/decisions/2026-12-07-young-generation.md)
ENTRYPOINT ["node", "--max-semi-space-size=32", "bin/request-sandbox.mjs"]
CMD []

# syntax=docker/dockerfile:1
# The service's image: built in one stage, run from node's slim image as the unprivileged `node`
# user, on PostgreSQL and Redis (compose.yaml; docs/deployment.md, "Containers").
# 22: of the LTS lines, the smallest resident set measured (docs/deployment.md, "Memory"); 24 works too.
ARG NODE_VERSION=22

FROM node:${NODE_VERSION}-bookworm-slim AS build
WORKDIR /src
COPY package.json package-lock.json ./
# No install scripts: the build needs none, and better-sqlite3's would compile SQLite without a compiler.
RUN npm ci --ignore-scripts --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:${NODE_VERSION}-bookworm-slim AS dependencies
WORKDIR /srv/gatehouse
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --ignore-scripts --no-audit --no-fund
# The PostgreSQL and Redis drivers, which the package leaves to its users (optional peers), at the
# versions the tests ran: one directory up, where Node finds them from the service's files, their
# own dependencies kept apart from the service's.
WORKDIR /srv
RUN echo '{"private": true}' > package.json \
  && lock=/srv/gatehouse/package-lock.json \
  && npm install --ignore-scripts --no-audit --no-fund \
    "pg@$(node -p "require('$lock').packages['node_modules/pg'].version")" \
    "ioredis@$(node -p "require('$lock').packages['node_modules/ioredis'].version")" \
  && rm package.json package-lock.json

FROM node:${NODE_VERSION}-bookworm-slim
ENV NODE_ENV=production HOST=0.0.0.0 PORT=3000
COPY --from=dependencies /srv/node_modules /srv/node_modules
WORKDIR /srv/gatehouse
COPY --from=dependencies /srv/gatehouse/node_modules ./node_modules
COPY --from=build /src/dist/server ./dist/server
COPY --from=build /src/dist/cli ./dist/cli
COPY --from=build /src/dist/app ./dist/app
COPY package.json ./
COPY scripts/docker-entrypoint.sh ./scripts/
# All of it belongs to root and is only read: the service writes nothing to its own files.
USER node
EXPOSE 3000
# Ready: the database answers (503 otherwise). Node's own fetch: the slim image has no curl.
HEALTHCHECK --interval=10s --timeout=3s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch(`http://127.0.0.1:${process.env.PORT}/api/auth/ready`).then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
ENTRYPOINT ["/srv/gatehouse/scripts/docker-entrypoint.sh"]

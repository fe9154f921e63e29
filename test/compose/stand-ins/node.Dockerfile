# TEST STAND-IN for the public image node:20-bookworm-slim, built only where no registry is reachable
# (see build.sh). Not the official image: Debian bookworm (debootstrap minbase) plus the host's own node
# binary and npm, laid out as the official image lays them out.
ARG BASE
FROM ${BASE}
ARG DESCRIPTION
ARG INPUTS_DIGEST
LABEL org.opencontainers.image.description="${DESCRIPTION}" \
      org.opencontainers.image.title="node:20-bookworm-slim (test stand-in)" \
      api-directory.test-stand-in.inputs="${INPUTS_DIGEST}"
COPY node /usr/local/bin/node
COPY npm /usr/local/lib/node_modules/npm
# No registry mirror but the npm registry is reachable here, through a proxy whose CA is in the host's
# bundle: npm inside a build must trust it (the official image relies on node's built-in roots instead).
COPY ca-certificates.crt /etc/ssl/certs/ca-certificates.crt
RUN ln -s ../lib/node_modules/npm/bin/npm-cli.js /usr/local/bin/npm \
 && ln -s ../lib/node_modules/npm/bin/npx-cli.js /usr/local/bin/npx \
 && mkdir -p /usr/local/etc \
 && printf 'cafile=/etc/ssl/certs/ca-certificates.crt\nupdate-notifier=false\nfund=false\n' > /usr/local/etc/npmrc \
 && groupadd --gid 1000 node \
 && useradd --uid 1000 --gid node --shell /bin/bash --create-home node \
 && node --version && npm --version
CMD ["node"]

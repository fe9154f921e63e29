# TEST STAND-IN for the public image redis:7, built only where no registry is reachable (see build.sh).
# Not the official image: Debian bookworm (debootstrap minbase) plus Debian's redis-server and
# redis-tools, made to behave as the official image does for docker-compose.yml: redis-server and
# redis-cli on PATH, protected mode off, working directory and volume /data owned by the redis user.
ARG BASE
FROM ${BASE}
ARG DESCRIPTION
ARG INPUTS_DIGEST
LABEL org.opencontainers.image.description="${DESCRIPTION}" \
      org.opencontainers.image.title="redis:7 (test stand-in)" \
      api-directory.test-stand-in.inputs="${INPUTS_DIGEST}"
# policy-rc.d: the package's scripts must not try to start a server during the build.
RUN printf '#!/bin/sh\nexit 101\n' > /usr/sbin/policy-rc.d && chmod +x /usr/sbin/policy-rc.d \
 && apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server redis-tools >/dev/null \
 && apt-get clean && rm -rf /var/lib/apt/lists/* /var/cache/apt/*.bin /usr/sbin/policy-rc.d \
 && mkdir /data && chown redis:redis /data
COPY redis-server /usr/local/bin/redis-server
VOLUME /data
WORKDIR /data
USER redis
EXPOSE 6379
CMD ["redis-server"]

# Caddy as Debian 12 ships it: the very version deploy/Caddyfile is tested with
# (make test-deploy). It keeps its certificates in /data (a volume).
FROM debian:bookworm-slim
RUN apt-get update \
 && apt-get install -y --no-install-recommends caddy ca-certificates \
 && rm -rf /var/lib/apt/lists/*
ENV XDG_DATA_HOME=/data XDG_CONFIG_HOME=/config
VOLUME ["/data", "/config"]
EXPOSE 80 443
CMD ["caddy", "run", "--config", "/etc/caddy/Caddyfile", "--adapter", "caddyfile"]
